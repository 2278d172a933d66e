// The OpenAPI document against REAL answers of a running emulator (startEmulator: real sockets).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { openApiDocument } from '../../src/api/document.js';
import { MANAGEMENT_ROUTES } from '../../src/api/management/index.js';
import { PUBLIC_ROUTES } from '../../src/api/routes.js';
import { responseSchema, validateSchema } from '../helpers/json-schema.js';
import { ENUMS, FIELDS, FIELD_TYPE } from '../helpers/service-fields.js';

type Doc = Record<string, any>;
let emu: RunningEmulator;
let doc: Doc;
let origin: string;

beforeAll(async () => {
  emu = await startEmulator();
  origin = new URL(emu.baseUrl).origin;
  doc = (await (await fetch(`${emu.baseUrl}/openapi.json`)).json()) as Doc;
});
afterAll(async () => {
  await emu?.close();
});

async function call(method: string, path: string, init: { body?: string; headers?: Record<string, string>; token?: string | null } = {}) {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  const token = init.token === undefined ? emu.site.accessToken : init.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${emu.baseUrl}${path}`, { method, headers, body: init.body });
  return { status: res.status, body: (await res.json()) as unknown };
}

/** Asserts the answer conforms to what the document declares for that operation and status. */
function conforms(docPath: string, method: string, r: { status: number; body: unknown }) {
  const errors = validateSchema(doc, responseSchema(doc, docPath, method, r.status), r.body);
  expect(errors, `${method} ${docPath} ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`).toEqual([]);
}

async function createSession(spec: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${origin}/_vtr/api/sites/${emu.site.siteId}/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(spec),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { session_id: string }).session_id;
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1, served as built by the pure module, with bearer security', () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const publicPaths = Object.keys(doc.paths).filter((p) => !p.startsWith('/_vtr/'));
    expect(publicPaths.sort()).toEqual(['/event', '/session/{id}', '/session/{id}/conversion', '/session/{id}/event']);
    expect(doc.paths['/event'].post.security).toEqual([]);
  });

  it('documents every declared route, the management API under its full paths with a server at the root', () => {
    const ops = Object.entries(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap(([p, item]) =>
      Object.entries(item).filter(([m]) => m !== 'servers').map(([m, op]) => `${m.toUpperCase()} ${p.startsWith('/_vtr/') ? p : `/api/v1${p}`} ${op.operationId}`));
    expect(ops.sort()).toEqual([...PUBLIC_ROUTES, ...MANAGEMENT_ROUTES].map((r) => `${r.method.toUpperCase()} ${r.path} ${r.operationId}`).sort());
    expect(new Set(ops.map((o) => o.split(' ')[2])).size).toBe(ops.length); // operationIds are unique
    const rules = doc.paths['/_vtr/api/sites/{site_id}/rules'];
    const rule = doc.paths['/_vtr/api/sites/{site_id}/rules/{rule_id}'];
    expect([rules.get?.operationId, rules.post?.operationId, rule.patch?.operationId, rule.delete?.operationId]).toEqual(['listRules', 'createRule', 'updateRule', 'deleteRule']);
    expect(rules.post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/RuleCreate' });
    expect(rules.get.responses['200'].content['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Rule' } });
    for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      if (!p.startsWith('/_vtr/')) {
        expect(item.servers, p).toBeUndefined();
        continue;
      }
      expect(item.servers, p).toEqual([{ url: '/' }]);
      for (const [m, op] of Object.entries(item)) {
        if (m === 'servers') continue;
        expect(op.tags, `${m} ${p}`).toEqual(['management']);
        expect(op.security, `${m} ${p}`).toEqual([{ adminToken: [] }, {}]);
        // Every {param} of the path is declared, in the path, required.
        const declared = (op.parameters ?? []).filter((x: any) => x.in === 'path').map((x: any) => x.required && x.name);
        expect(declared.sort(), `${m} ${p}`).toEqual([...p.matchAll(/\{(\w+)\}/g)].map((x) => x[1]).sort());
      }
    }
    expect(doc.components.securitySchemes.adminToken).toMatchObject({ type: 'http', scheme: 'bearer', description: expect.stringMatching(/--admin-token/) });
    expect(doc.tags).toEqual([{ name: 'management', description: expect.any(String) }]);
  });

  it('every $ref resolves, and every component schema is referenced', () => {
    const refs = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) (k === '$ref' && typeof v === 'string' ? refs.add(v) : walk(v));
      }
    };
    walk(doc);
    expect(refs.size).toBeGreaterThan(30);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\/\w+$/);
      expect(doc.components.schemas, ref).toHaveProperty(ref.split('/').pop()!);
    }
    expect(Object.keys(doc.components.schemas).filter((n) => !refs.has(`#/components/schemas/${n}`))).toEqual([]);
  });

  it('declares every Session field, required, with its enumerations', () => {
    const s = doc.components.schemas.Session;
    expect(s.required).toEqual([...FIELDS]);
    expect(Object.keys(s.properties)).toEqual([...FIELDS]);
    for (const f of FIELDS) {
      const declared = [s.properties[f].type].flat();
      expect(declared[0], f).toBe(FIELD_TYPE[f]);
    }
    expect(s.additionalProperties).toBe(false);
    expect(s.properties.risk_level.enum).toEqual([...ENUMS.risk_level, null]);
    expect(s.properties.engagement_level.enum).toEqual([...ENUMS.engagement_level, null]);
    expect(s.properties.channel.enum).toEqual([...ENUMS.channel, null]);
    expect(s.properties.device_type.enum).toEqual([...ENUMS.device_type, null]);
    expect(s.properties.risks).toEqual({ type: 'array', items: { type: 'string' }, description: expect.any(String) });
  });

  it('declares the error model with the codes of each status', () => {
    const codes = (name: string) => doc.components.schemas[`Error${name}`].properties.code.enum;
    expect(codes('BadRequest')).toEqual(['invalid_json', 'invalid_request']);
    expect(codes('Unauthorized')).toEqual(['unauthorized']);
    expect(codes('NotFound')).toEqual(['not_found']);
    expect(codes('PayloadTooLarge')).toEqual(['payload_too_large']);
    // A 400 names the refused field in `field` as well as in `message`.
    expect(Object.keys(doc.components.schemas.ErrorBadRequest.properties)).toEqual(['code', 'message', 'field']);
  });

  it('openapi: every 405 declares its Allow header and every 429 its Retry-After, as the server sends them', async () => {
    let count = 0;
    for (const ops of Object.values(doc.paths as Record<string, Record<string, any>>)) {
      for (const op of Object.values(ops)) {
        if (!op?.responses) continue;
        if (op.responses['405']) expect(Object.keys(op.responses['405'].headers ?? {}), op.operationId).toEqual(['Allow']), count++;
        if (op.responses['429']) expect(Object.keys(op.responses['429'].headers ?? {}), op.operationId).toEqual(['Retry-After']);
      }
    }
    expect(count).toBeGreaterThan(4);
    const res = await fetch(`${emu.baseUrl}/event`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('`vtr openapi` builds the same document with the CLI base URL as its server', () => {
    const own = openApiDocument({ serverUrl: 'http://127.0.0.1:8787/api/v1' }) as Doc;
    expect(own.servers).toEqual([{ url: 'http://127.0.0.1:8787/api/v1' }]);
    expect(own.paths['/_vtr/api/clock'].servers).toEqual([{ url: 'http://127.0.0.1:8787' }]);
    // Only the servers differ.
    const relative = (d: Doc) => JSON.stringify({ ...d, servers: null }).replaceAll(/"servers":\[\{"url":"[^"]*"\}\]/g, '');
    expect(relative(own)).toBe(relative(doc));
  });
});

describe('real answers conform to it', () => {
  it('GET /session/{id}: sessions of every kind', async () => {
    const specs = [
      {},
      { ip: '203.0.113.7' },
      { ip: '198.51.100.4', url: 'https://shop.test/landing?gclid=abc&utm_campaign=x' },
      { ip: '2001:db8::1', user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1' },
      { ip: null, user_agent: null, language: null, timezone: null, referrer: 'https://spam-referrer.test/x' },
      { user_agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', page_views: 4, duration: 120, custom_events: ['conversion'] },
    ];
    for (const spec of specs) {
      const id = await createSession(spec);
      conforms('/session/{id}', 'GET', await call('GET', `/session/${id}`));
    }
  });

  it('POST /session/{id}/event', async () => {
    const id = await createSession({});
    conforms('/session/{id}/event', 'POST', await call('POST', `/session/${id}/event`, { body: JSON.stringify({ name: 'signup' }) }));
  });

  it('error answers, each with a status the operation declares', async () => {
    const id = await createSession({});
    const cases: Array<[string, string, string, Parameters<typeof call>[2], number]> = [
      ['/session/{id}', 'GET', `/session/${id}`, { token: null }, 401],
      ['/session/{id}', 'GET', `/session/${id}`, { token: 'at_test_nope' }, 401],
      ['/session/{id}', 'GET', '/session/ses_unknown', {}, 404],
      ['/session/{id}/event', 'POST', `/session/${id}/event`, { body: '{"name":' }, 400],
      ['/session/{id}/event', 'POST', `/session/${id}/event`, { body: '{}' }, 400],
      ['/session/{id}/event', 'POST', `/session/${id}/event`, { body: '{"name":"x"}', headers: { 'content-type': 'text/plain' } }, 415],
      ['/session/{id}/event', 'POST', `/session/${id}/event`, { body: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }) }, 413],
      ['/session/{id}/event', 'POST', '/session/ses_unknown/event', { body: '{"name":"x"}' }, 404],
    ];
    for (const [docPath, method, path, init, status] of cases) {
      const r = await call(method, path, init);
      expect(r.status, `${method} ${path}`).toBe(status);
      conforms(docPath, method, r);
    }
    const r = await call('DELETE', `/session/${id}`);
    expect(r.status).toBe(405);
    conforms('/session/{id}', 'GET', r); // 405 is declared on the path's operation
  });

  it('POST /event: full, partial and refused checks', async () => {
    const pv = await fetch(`${origin}/_vtr/agent/pageview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ site_key: emu.site.siteKey, url: 'https://example.com/signup' }),
    });
    expect(pv.status).toBe(200);
    const { probe_id } = (await pv.json()) as { probe_id: string };
    const key = emu.site.secretKey;
    const bodies = [
      { secret_key: key, probe_id, ip: '192.0.2.44', email: 'Jane.Doe+x@mailinator.com', name: 'Jane Doe', phone: '(212) 664-7665',
        address: { address1: '1 Main St', city: 'New York', state: 'New York', country: 'United States', postal_code: '10001' } },
      { secret_key: key, email: 'a@example.com' },
      { secret_key: key, probe_id: 'garbage', ip: '203.0.113.9' },
      { secret_key: key, probe_id: '' , phone: 'not a phone', address: { country: 'Atlantis' } },
      { secret_key: key, ip: '2001:db8::5', email: null },
      { secret_key: key },
    ];
    for (const b of bodies) {
      const r = await call('POST', '/event', { body: JSON.stringify(b), token: null });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      conforms('/event', 'POST', r);
    }
    for (const [body, status] of [[{}, 401], [{ secret_key: 'sk_test_wrong' }, 401], [{ secret_key: key, email: 5 }, 400], ['[1]', 400]] as const) {
      const r = await call('POST', '/event', { body: typeof body === 'string' ? body : JSON.stringify(body), token: null });
      expect(r.status).toBe(status);
      conforms('/event', 'POST', r);
    }
  });
});

describe('real management answers conform to it', () => {
  async function admin(method: string, path: string, body?: unknown) {
    const res = await fetch(`${origin}/_vtr/api${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  }
  /** Calls `path` (concrete) and checks the answer against the operation of `docPath`. */
  async function check(method: string, docPath: string, path: string, body?: unknown, status = method === 'POST' && /\/(rules|views|webhooks|sessions|tokens|simulate|trigger)$|\/sites$/.test(path) ? 201 : 200) {
    const r = await admin(method, path, body);
    expect(r.status, `${method} ${path}: ${JSON.stringify(r.body).slice(0, 200)}`).toBe(status);
    conforms(`/_vtr/api${docPath}`, method, r);
    return r.body;
  }
  const site = () => emu.site.siteId;

  it('rules: list, create, read, update, delete, and their errors', async () => {
    await check('GET', '/sites/{site_id}/rules', `/sites/${site()}/rules`);
    const rule = await check('POST', '/sites/{site_id}/rules', `/sites/${site()}/rules`, { name: 'Tor', filter: 'risks contains tor', action: 'block' });
    await check('GET', '/sites/{site_id}/rules/{rule_id}', `/sites/${site()}/rules/${rule.rule_id}`);
    await check('PATCH', '/sites/{site_id}/rules/{rule_id}', `/sites/${site()}/rules/repeat_device`, { threshold: 5, enabled: true });
    await check('DELETE', '/sites/{site_id}/rules/{rule_id}', `/sites/${site()}/rules/${rule.rule_id}`);
    await check('POST', '/sites/{site_id}/rules', `/sites/${site()}/rules`, { filter: 'risks contains', action: 'block' }, 400);
    await check('POST', '/sites/{site_id}/rules', `/sites/${site()}/rules`, { filter: 'x = 1', action: 'smite' }, 400);
    await check('DELETE', '/sites/{site_id}/rules/{rule_id}', `/sites/${site()}/rules/bot`, undefined, 400);
    await check('GET', '/sites/{site_id}/rules/{rule_id}', `/sites/${site()}/rules/rul_nope`, undefined, 404);
    const wrong = await admin('PUT', `/sites/${site()}/rules`, {});
    expect(wrong.status).toBe(405);
    conforms('/_vtr/api/sites/{site_id}/rules', 'GET', wrong); // 405 is declared on the path's operations
  });

  it('lists filtered by ?site= answer an unknown site with a declared 404', async () => {
    for (const p of ['/views', '/webhooks', '/sessions', '/checks', '/tokens', '/logs', '/notifications']) {
      await check('GET', p, `${p}?site=site_nope`, undefined, 404);
      const site = doc.paths[`/_vtr/api${p}`].get.parameters.find((x: any) => x.name === 'site');
      expect(site.description, p).toMatch(/unknown site is a 404/);
    }
  });

  it('sites, tokens, sessions, checks, views, webhooks, events, clock, logs and state', async () => {
    await check('GET', '/sites', '/sites');
    await check('GET', '/sites/default', '/sites/default');
    const other = await check('POST', '/sites', '/sites', { name: 'Other', owner_email: 'o@example.com' });
    await check('PATCH', '/sites/{site_id}', `/sites/${other.site_id}`, { plan: 'paid' });
    await check('GET', '/sites/{site_id}/keys', `/sites/${other.site_id}/keys`);
    await check('POST', '/sites/{site_id}/keys/rotate', `/sites/${other.site_id}/keys/rotate`);
    const token = await check('POST', '/sites/{site_id}/tokens', `/sites/${other.site_id}/tokens`);
    await check('GET', '/sites/{site_id}/tokens', `/sites/${other.site_id}/tokens`);
    await check('DELETE', '/tokens/{token}', `/tokens/${token.token}`);
    await check('GET', '/tokens', '/tokens');
    await check('DELETE', '/sites/{site_id}', `/sites/${other.site_id}`);

    const session = await check('POST', '/sites/{site_id}/sessions', `/sites/${site()}/sessions`, { ip: '203.0.113.9', custom_events: ['signup'] });
    await check('POST', '/sites/{site_id}/sessions/simulate', `/sites/${site()}/sessions/simulate`, { count: 5, seed: 2 });
    await check('GET', '/sessions', '/sessions?limit=5');
    await check('GET', '/sessions/{session_id}', `/sessions/${session.session_id}`);
    await fetch(`${emu.baseUrl}/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: emu.site.secretKey, ip: '192.0.2.1' }) });
    const [chk] = await check('GET', '/checks', '/checks');
    await check('GET', '/checks/{check_id}', `/checks/${chk.id}`);
    const [entry] = await check('GET', '/logs', '/logs');
    await check('GET', '/logs/{request_id}', `/logs/${entry.request_id}`);

    const view = await check('POST', '/sites/{site_id}/views', `/sites/${site()}/views`, { name: 'All', filter: 'page_views > 0' });
    await check('GET', '/views', '/views');
    await check('PATCH', '/views/{saved_view_id}', `/views/${view.saved_view_id}`, { trigger_webhooks: false });
    const hook = await check('POST', '/sites/{site_id}/webhooks', `/sites/${site()}/webhooks`, { url: 'http://127.0.0.1:9/hook' });
    await check('GET', '/sites/{site_id}/webhooks', `/sites/${site()}/webhooks`);
    const sent = await check('POST', '/webhooks/{webhook_id}/trigger', `/webhooks/${hook.webhook_id}/trigger`, {});
    await check('GET', '/webhook-events/{webhook_event_id}', `/webhook-events/${sent.webhook_event_id}`);
    await check('GET', '/webhooks/{webhook_id}/events', `/webhooks/${hook.webhook_id}/events`);
    await check('GET', '/sessions/{session_id}/webhook-events', `/sessions/${sent.session_id}/webhook-events`);
    await check('POST', '/webhook-events/{webhook_event_id}/retry', `/webhook-events/${sent.webhook_event_id}/retry`, undefined, 409);
    await check('POST', '/webhooks/{webhook_id}/disable', `/webhooks/${hook.webhook_id}/disable`);
    await check('DELETE', '/webhooks/{webhook_id}', `/webhooks/${hook.webhook_id}`);
    await check('DELETE', '/views/{saved_view_id}', `/views/${view.saved_view_id}`);
    await check('GET', '/notifications', '/notifications');

    await check('GET', '/clock', '/clock');
    await check('POST', '/clock/advance', '/clock/advance', { duration: '1m' }, 409); // the system clock does not move
    await check('POST', '/clock/set', '/clock/set', { when: 'now' }, 400);
    await check('GET', '/state', '/state');
  });
});

describe('the test validator itself', () => {
  const root = { components: { schemas: { N: { type: ['integer', 'null'] } } } };
  it('reports type, required, additionalProperties, enum, $ref and anyOf failures', () => {
    const schema = {
      type: 'object', required: ['a', 'b'], additionalProperties: false,
      properties: { a: { $ref: '#/components/schemas/N' }, b: { type: 'string', enum: ['x'] }, c: { anyOf: [{ type: 'null' }, { type: 'array', items: { type: 'string' } }] } },
    };
    expect(validateSchema(root, schema, { a: null, b: 'x', c: ['y'] })).toEqual([]);
    expect(validateSchema(root, schema, { a: 1.5, b: 'y', c: [1], d: 0 })).toHaveLength(4);
    expect(validateSchema(root, schema, { b: 'x' })).toEqual(['$: missing required a']);
    expect(() => validateSchema(root, { oneOf: [] }, 1)).toThrow(/unsupported/);
  });
});
