// Saved views: /_vtr/api/sites/{site_id}/views (list, create), /_vtr/api/views/{saved_view_id}
// (read, change, delete), /_vtr/api/views (every site's).
import * as z from 'zod';
import { MAX_FILTER_LENGTH } from '../../domain/filter/index.js';
import { Timestamp } from '../common.js';
import { declareRoute, json } from '../declare.js';
import { deleted, failures, forDefault, nameOf, limit, nullNotAllowed, nullRequired, MANAGEMENT_SECURITY as security, MANAGEMENT_TAG, pathId, SiteParams, siteFilter } from './common.js';

const tags = [MANAGEMENT_TAG];
const FILTER = 'Over Session fields, e.g. `risk_level in (suspicious, invalid) and channel = paid`';
const TRIGGER = "A session that comes to match it sets off the site's webhooks";
const viewFields = {
  name: nameOf(nullRequired('a saved view needs a name', 'a string')),
  filter: z.string(nullRequired('a saved view needs a filter', 'a string')).min(1).max(MAX_FILTER_LENGTH).meta({ description: FILTER }),
  trigger_webhooks: z.boolean().meta({ description: TRIGGER }),
};
/** The console's view forms validate with the same schemas. */
export const ViewCreate = z
  .strictObject({ ...viewFields, trigger_webhooks: z.boolean(nullNotAllowed('use true or false', undefined, forDefault(false))).meta({ description: TRIGGER }).optional() })
  .meta({ id: 'SavedViewCreate' });
// A change may leave any field out but null none of them.
export const ViewUpdate = z
  .strictObject({
    name: nameOf(nullNotAllowed('a saved view needs a name')),
    filter: z.string(nullNotAllowed('a saved view needs a filter')).min(1).max(MAX_FILTER_LENGTH).meta({ description: FILTER }),
    trigger_webhooks: z.boolean(nullNotAllowed('use true or false')).meta({ description: TRIGGER }),
  })
  .partial()
  .meta({ id: 'SavedViewUpdate' });

export const SavedView = z
  .looseObject({ saved_view_id: z.string(), site_id: z.string(), name: z.string(), filter: z.string(), trigger_webhooks: z.boolean(), created_at: Timestamp })
  .meta({ id: 'SavedView' });

const ViewParams = z.object({ saved_view_id: pathId('saved_view_id', 'The saved view') });

export const listViewsRoute = declareRoute({
  method: 'get', path: '/_vtr/api/views', operationId: 'listViews', summary: 'Saved views of every site', tags, security,
  request: { query: z.object({ site: siteFilter, limit: limit(10_000) }) },
  responses: { 200: { description: 'The views', content: json(z.array(SavedView)) }, ...failures('read', 400, 404) },
});
export const listSiteViewsRoute = declareRoute({
  method: 'get', path: '/_vtr/api/sites/{site_id}/views', operationId: 'listSiteViews', summary: "The site's saved views", tags, security,
  request: { params: SiteParams },
  responses: { 200: { description: 'The views', content: json(z.array(SavedView)) }, ...failures('read', 404) },
});
export const createViewRoute = declareRoute({
  method: 'post', path: '/_vtr/api/sites/{site_id}/views', operationId: 'createView', summary: 'Create a saved view', tags, security,
  request: { params: SiteParams, body: { required: true, content: json(ViewCreate) } },
  responses: { 201: { description: 'The new view', content: json(SavedView) }, ...failures('write', 404) },
});
export const getViewRoute = declareRoute({
  method: 'get', path: '/_vtr/api/views/{saved_view_id}', operationId: 'getView', summary: 'Read a saved view', tags, security,
  request: { params: ViewParams },
  responses: { 200: { description: 'The view', content: json(SavedView) }, ...failures('read', 404) },
});
export const updateViewRoute = declareRoute({
  method: 'patch', path: '/_vtr/api/views/{saved_view_id}', operationId: 'updateView', summary: 'Change a saved view', tags, security,
  request: { params: ViewParams, body: { required: true, content: json(ViewUpdate) } },
  responses: { 200: { description: 'The view as changed', content: json(SavedView) }, ...failures('write', 404) },
});
export const deleteViewRoute = declareRoute({
  method: 'delete', path: '/_vtr/api/views/{saved_view_id}', operationId: 'deleteView', summary: 'Delete a saved view', tags, security,
  request: { params: ViewParams },
  responses: { 200: { description: 'Deleted', content: json(deleted('SavedViewDeleted', 'saved_view_id')) }, ...failures('write', 404) },
});

export const VIEW_ROUTES = [listViewsRoute, listSiteViewsRoute, createViewRoute, getViewRoute, updateViewRoute, deleteViewRoute] as const;
