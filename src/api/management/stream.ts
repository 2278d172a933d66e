// GET /_vtr/api/stream: server-sent events of everything that happens.
import * as z from 'zod';
import { declareRoute } from '../declare.js';
import { failures, MANAGEMENT_SECURITY as security, MANAGEMENT_TAG } from './common.js';

export const streamRoute = declareRoute({
  method: 'get', path: '/_vtr/api/stream', operationId: 'streamEvents', summary: 'Everything that happens, as server-sent events', tags: [MANAGEMENT_TAG], security,
  description: 'A `ready` event first, then one event per change: its type (`session.created`, `rule.updated`, `webhook_event.updated`, ...) as the SSE event name, its JSON as the data. A comment every 15 s keeps the connection.',
  request: {
    query: z.object({
      // Empty or only commas (a script's unset variable) would keep every type: a 400, as `?site=` is.
      types: z.string().regex(/[^\s,]/, 'must not be empty or only commas: leave types out for every event type').optional().meta({ description: 'Comma-separated event types to keep (prefix match: `webhook_` keeps every webhook event type); one that starts no event type, or none given (`types=`), is a 400' }),
    }),
  },
  responses: { 200: { description: 'The event stream', content: { 'text/event-stream': { schema: z.string() } } }, ...failures('read', 400) },
});

export const STREAM_ROUTES = [streamRoute] as const;
