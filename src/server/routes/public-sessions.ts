import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { VtrError } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { bearer, readJsonObject, route, param } from '../http.js';
import { validate } from '../validate.js';

const eventBody = z.object({
  name: z.string({ error: 'required, a string of 1 to 100 characters' }).min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  value: z.number().finite().optional(),
});

export function publicSessionRoutes(app: Hono, deps: AppDeps): void {
  const siteOf = (c: Context): string => {
    const token = bearer(c);
    if (!token) throw new VtrError('unauthorized', 'send an access token: Authorization: Bearer <ACCESS_TOKEN> (see `vtr tokens list`)');
    const siteId = deps.sites.siteIdForToken(token);
    if (!siteId) throw new VtrError('unauthorized', 'the access token is unknown or revoked');
    return siteId;
  };

  route(app, '/api/v1/session/:id', {
    GET: (c) => {
      const siteId = siteOf(c);
      return c.json(deps.sessions.get(param(c, 'id'), siteId));
    },
  });

  route(app, '/api/v1/session/:id/event', {
    POST: async (c) => {
      const siteId = siteOf(c);
      const body = validate(eventBody, await readJsonObject(c));
      deps.sessions.addCustomEvent(param(c, 'id'), siteId, body.name, body.value);
      return c.json({ success: true });
    },
  });
}
