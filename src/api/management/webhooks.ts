// Webhooks of a site: /_vtr/api/sites/{site_id}/webhooks (list, create), /_vtr/api/webhooks/{webhook_id}
// (read, change, delete, enable, disable, a test event), /_vtr/api/webhooks (every site's).
import * as z from 'zod';
import { WEBHOOK_STATUSES } from '../../domain/webhooks.js';
import { Timestamp } from '../common.js';
import { declareRoute, json } from '../declare.js';
import { deleted, failures, limit, MANAGEMENT_SECURITY as security, MANAGEMENT_TAG, nullNotAllowed, nullRequired, pathId, SiteParams, siteFilter } from './common.js';
import { WebhookEvent } from './webhook-events.js';

const tags = [MANAGEMENT_TAG];
const url = z.string(nullRequired('a webhook needs a url', 'a string')).min(1).max(2000).meta({ description: 'An absolute http:// or https:// URL' });
/** The console's webhook form validates with the same schema. */
export const WebhookCreate = z.strictObject({ url }).meta({ id: 'WebhookCreate' });
export const WebhookUpdate = z
  .strictObject({
    url: z.string(nullNotAllowed('a webhook needs a url')).min(1).max(2000).meta({ description: 'An absolute http:// or https:// URL' }),
    status: z.enum(WEBHOOK_STATUSES, nullNotAllowed('a webhook is enabled or disabled', `must be one of ${WEBHOOK_STATUSES.join(', ')}`)),
  })
  .partial()
  .meta({ id: 'WebhookUpdate' });
// null is "left out", as clients that send every field do.
export const WebhookTrigger = z
  .strictObject({ session_id: z.string().min(1).max(200).nullable(), saved_view_id: z.string().min(1).max(200).nullable() })
  .partial()
  .meta({ id: 'WebhookTrigger', description: 'Default (left out or null): a new test session, and the site\'s first view or a test view' });

export const Webhook = z
  .looseObject({
    webhook_id: z.string(),
    site_id: z.string(),
    url: z.string(),
    status: z.enum(WEBHOOK_STATUSES),
    secret: z.string().meta({ description: 'The whsec_ signing secret (Standard Webhooks)' }),
    consecutive_failures: z.number().int(),
    created_at: Timestamp,
  })
  .meta({ id: 'Webhook' });

const TestEvent = WebhookEvent.extend({ payload: z.unknown().meta({ description: 'The body the attempt posts' }) }).meta({ id: 'WebhookTestEvent' });
const WebhookParams = z.object({ webhook_id: pathId('webhook_id', 'The webhook') });

export const listWebhooksRoute = declareRoute({
  method: 'get', path: '/_vtr/api/webhooks', operationId: 'listWebhooks', summary: 'Webhooks of every site', tags, security,
  request: { query: z.object({ site: siteFilter, limit: limit(10_000) }) },
  responses: { 200: { description: 'The webhooks', content: json(z.array(Webhook)) }, ...failures('read', 400, 404) },
});
export const listSiteWebhooksRoute = declareRoute({
  method: 'get', path: '/_vtr/api/sites/{site_id}/webhooks', operationId: 'listSiteWebhooks', summary: "The site's webhooks", tags, security,
  request: { params: SiteParams },
  responses: { 200: { description: 'The webhooks', content: json(z.array(Webhook)) }, ...failures('read', 404) },
});
export const createWebhookRoute = declareRoute({
  method: 'post', path: '/_vtr/api/sites/{site_id}/webhooks', operationId: 'createWebhook', summary: 'Create a webhook (paid sites only)', tags, security,
  request: { params: SiteParams, body: { required: true, content: json(WebhookCreate) } },
  responses: { 201: { description: 'The new webhook', content: json(Webhook) }, ...failures('write', 404) },
});
export const getWebhookRoute = declareRoute({
  method: 'get', path: '/_vtr/api/webhooks/{webhook_id}', operationId: 'getWebhook', summary: 'Read a webhook', tags, security,
  request: { params: WebhookParams },
  responses: { 200: { description: 'The webhook', content: json(Webhook) }, ...failures('read', 404) },
});
export const updateWebhookRoute = declareRoute({
  method: 'patch', path: '/_vtr/api/webhooks/{webhook_id}', operationId: 'updateWebhook', summary: 'Change a webhook', tags, security,
  request: { params: WebhookParams, body: { required: true, content: json(WebhookUpdate) } },
  responses: { 200: { description: 'The webhook as changed', content: json(Webhook) }, ...failures('write', 404) },
});
export const deleteWebhookRoute = declareRoute({
  method: 'delete', path: '/_vtr/api/webhooks/{webhook_id}', operationId: 'deleteWebhook', summary: 'Delete a webhook', tags, security,
  request: { params: WebhookParams },
  responses: { 200: { description: 'Deleted', content: json(deleted('WebhookDeleted', 'webhook_id')) }, ...failures('write', 404) },
});
export const enableWebhookRoute = declareRoute({
  method: 'post', path: '/_vtr/api/webhooks/{webhook_id}/enable', operationId: 'enableWebhook', summary: 'Enable a webhook (resets its run of failures)', tags, security,
  request: { params: WebhookParams },
  responses: { 200: { description: 'The webhook', content: json(Webhook) }, ...failures('write', 404) },
});
export const disableWebhookRoute = declareRoute({
  method: 'post', path: '/_vtr/api/webhooks/{webhook_id}/disable', operationId: 'disableWebhook', summary: 'Disable a webhook', tags, security,
  request: { params: WebhookParams },
  responses: { 200: { description: 'The webhook', content: json(Webhook) }, ...failures('write', 404) },
});
export const triggerWebhookRoute = declareRoute({
  method: 'post', path: '/_vtr/api/webhooks/{webhook_id}/trigger', operationId: 'triggerWebhook', summary: 'A test event now; its attempt follows', tags, security,
  request: { params: WebhookParams, body: { required: false, content: json(WebhookTrigger) } },
  responses: { 201: { description: 'The event, before its attempt', content: json(TestEvent) }, ...failures('write', 404, 409) },
});

export const WEBHOOK_ROUTES = [
  listWebhooksRoute, listSiteWebhooksRoute, createWebhookRoute, getWebhookRoute, updateWebhookRoute, deleteWebhookRoute,
  enableWebhookRoute, disableWebhookRoute, triggerWebhookRoute,
] as const;
