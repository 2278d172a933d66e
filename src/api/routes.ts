// The public API's routes, declared once: the server mounts them from these objects (method, path
// and schemas: server/mount.ts), the OpenAPI document is generated from them, and the client
// checks answers against their 200 schemas.
import { CheckRequest, CheckResult } from './check.js';
import { declareRoute, errors, json } from './declare.js';
import { CustomEventRequest, CustomEventResponse, SessionIdParams } from './public.js';
import { SessionSchema } from './session.js';

export const getSessionRoute = declareRoute({
  method: 'get',
  path: '/api/v1/session/{id}',
  operationId: 'getSession',
  summary: 'Read one session',
  request: { params: SessionIdParams },
  responses: { 200: { description: 'The session', content: json(SessionSchema) }, ...errors(401, 404, 405, 429, 503) },
});

export const addCustomEventRoute = declareRoute({
  method: 'post',
  path: '/api/v1/session/{id}/event',
  operationId: 'addCustomEvent',
  summary: "Append a custom event to the session's custom_events",
  request: { params: SessionIdParams, body: { required: true, content: json(CustomEventRequest) } },
  responses: {
    200: { description: 'Added', content: json(CustomEventResponse) },
    ...errors(400, 401, 404, 405, 413, 415, 429, 503, 507),
  },
});

export const checkVisitorRoute = declareRoute({
  method: 'post',
  path: '/api/v1/event',
  operationId: 'checkVisitor',
  summary: 'Submit a visitor check (probe, IP, email, phone, address)',
  description: "Authenticated by the site's `secret_key` in the body, or by `Authorization: Bearer <secret key>` (the body wins when both are sent). Bad values are reported in the result; only wrong JSON types are a 400.",
  security: [],
  request: { body: { required: true, content: json(CheckRequest) } },
  responses: { 200: { description: 'The check result', content: json(CheckResult) }, ...errors(400, 401, 405, 413, 415, 429, 503, 507) },
});

export const convertSessionRoute = declareRoute({
  method: 'put',
  path: '/api/v1/session/{id}/conversion',
  operationId: 'convertSession',
  summary: "Mark the session converted: adds the site's first conversion event once (idempotent)",
  description: 'No body needed. A session that has one of the site\'s conversion events already is left as it is.',
  request: { params: SessionIdParams },
  responses: {
    200: { description: 'Converted (now or before)', content: json(CustomEventResponse) },
    ...errors(401, 404, 405, 409, 429, 503, 507),
  },
});

export const PUBLIC_ROUTES = [getSessionRoute, addCustomEventRoute, convertSessionRoute, checkVisitorRoute] as const;
