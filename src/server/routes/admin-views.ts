// Saved views: /_vtr/api/sites/:id/views (list, create) and /_vtr/api/views/:id (read, change, delete).
import type { Hono } from 'hono';
import { z } from 'zod';
import { MAX_FILTER_LENGTH } from '../../domain/filter/index.js';
import type { AppDeps } from '../deps.js';
import { param, queryLimit, readJsonObject, route } from '../http.js';
import { validate } from '../validate.js';

const viewFields = {
  name: z.string().min(1).max(200),
  filter: z.string().min(1).max(MAX_FILTER_LENGTH),
  trigger_webhooks: z.boolean(),
};
const createBody = z.strictObject({ ...viewFields, trigger_webhooks: viewFields.trigger_webhooks.optional() });
const updateBody = z.strictObject(viewFields).partial();
/** The console's view forms validate with the same schemas. */
export { createBody as viewCreateBody, updateBody as viewUpdateBody };

export function adminViewRoutes(app: Hono, { views }: AppDeps): void {
  if (!views) return;
  // Views are few (settings, not traffic): `limit` is honoured, no cursor.
  route(app, '/_vtr/api/views', { GET: (c) => c.json(views.list(c.req.query('site') || undefined).slice(0, queryLimit(c.req.query('limit'), 10_000))) });
  route(app, '/_vtr/api/sites/:id/views', {
    GET: (c) => c.json(views.list(param(c, 'id'))),
    POST: async (c) => c.json(views.create(param(c, 'id'), validate(createBody, await readJsonObject(c))), 201),
  });
  route(app, '/_vtr/api/views/:id', {
    GET: (c) => c.json(views.get(param(c, 'id'))),
    PATCH: async (c) => c.json(views.update(param(c, 'id'), validate(updateBody, await readJsonObject(c)))),
    DELETE: (c) => {
      const v = views.delete(param(c, 'id'));
      return c.json({ deleted: true, saved_view_id: v.saved_view_id });
    },
  });
}
