// The API's schemas: what they accept and refuse, and the document generated from the routes.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LISTED_ROUTES, routeOf } from '../../src/api/answers.js';
import { CheckResult } from '../../src/api/check.js';
import { ERROR_CODES, ERROR_SCHEMAS } from '../../src/api/common.js';
import { openApiDocument } from '../../src/api/document.js';
import { MANAGEMENT_ROUTES } from '../../src/api/management/index.js';
import { PUBLIC_ROUTES } from '../../src/api/routes.js';
import { SessionSchema } from '../../src/api/session.js';
import { SESSION_FIELDS } from '../../src/domain/session.js';

const session = (): Record<string, unknown> => ({
  ...Object.fromEntries(SESSION_FIELDS.map((f) => [f, null])),
  site_id: 'site_1', session_id: 'ses_1', created_at: '2026-01-01T00:00:00.000000', updated_at: '2026-01-01T00:00:01.500000',
  risks: [], actions: [], custom_events: ['signup'], risk_level: 'normal', duration: 1, value: 2.5,
});

describe('SessionSchema', () => {
  it('SessionSchema: a session with every field, null where unknown, is one', () => {
    expect(SessionSchema.safeParse(session()).success).toBe(true);
  });

  it('SessionSchema: a missing or extra field, a value outside an enumeration, a timestamp with a zone or a fractional count is not', () => {
    const { fingerprint: _, ...missing } = session();
    for (const bad of [
      missing,
      { ...session(), colour: 'red' },
      { ...session(), risk_level: 'scary' },
      { ...session(), created_at: '2026-01-01T00:00:00Z' },
      { ...session(), page_views: 1.5 },
      { ...session(), session_id: null },
      { ...session(), risks: null },
    ]) expect(SessionSchema.safeParse(bad).success, JSON.stringify(bad).slice(0, 80)).toBe(false);
  });
});

describe('the route declarations', () => {
  it('routes: each public route answers its errors with the codes of their status', () => {
    for (const route of PUBLIC_ROUTES) {
      for (const [status, res] of Object.entries(route.responses)) {
        if (status === '200') continue;
        const schema = (res as { content: { 'application/json': { schema: unknown } } }).content['application/json'].schema;
        expect(schema, `${route.path} ${status}`).toBe(ERROR_SCHEMAS[Number(status) as keyof typeof ERROR_CODES]);
      }
    }
    expect(ERROR_SCHEMAS[404].safeParse({ code: 'not_found', message: 'x' }).success).toBe(true);
    expect(ERROR_SCHEMAS[404].safeParse({ code: 'unauthorized', message: 'x' }).success).toBe(false);
  });

  it('openApiDocument: one operation per declared public route, paths relative to the /api/v1 server', () => {
    const doc = openApiDocument() as { paths: Record<string, Record<string, { operationId: string }>>; servers: unknown };
    const ops = Object.entries(doc.paths).filter(([p]) => !p.startsWith('/_vtr/')).flatMap(([p, ms]) => Object.entries(ms).map(([m, op]) => `${m.toUpperCase()} /api/v1${p} ${op.operationId}`));
    expect(ops.sort()).toEqual(PUBLIC_ROUTES.map((r) => `${r.method.toUpperCase()} ${r.path} ${r.operationId}`).sort());
    expect(doc.servers).toEqual([{ url: '/api/v1' }]);
    expect(openApiDocument()).toEqual(doc); // the same every time
    const schemas = (doc as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas;
    for (const e of Object.values(ERROR_CODES)) expect(schemas, e.name).toHaveProperty(`Error${e.name}`);
  });

  it('answers: the client checks a public answer with the schema its route declares (unknown fields allowed)', () => {
    expect(routeOf('GET', '/api/v1/session/ses_1')!.schema.safeParse({ ...session(), newer_field: 1 }).success).toBe(true);
    expect(routeOf('GET', '/api/v1/session/ses_1')!.schema.safeParse({ ...session(), risk_level: 'scary' }).success).toBe(false);
    expect(routeOf('POST', '/api/v1/event')!.schema).toBe(CheckResult);
    expect(LISTED_ROUTES).toContain('POST /api/v1/session/*/event');
    // Every declared route with a JSON answer, management included (the event stream answers text).
    expect(LISTED_ROUTES).toHaveLength(PUBLIC_ROUTES.length + MANAGEMENT_ROUTES.length - 1);
    expect(LISTED_ROUTES).toEqual(expect.arrayContaining(['GET /_vtr/api/sites/*/rules', 'PATCH /_vtr/api/sites/*/rules/*', 'DELETE /_vtr/api/sites/*/rules/*']));
    expect(routeOf('GET', '/_vtr/api/stream')).toBeNull();
    // A strict answer schema is checked tolerantly: a newer emulator may add fields.
    expect(routeOf('GET', '/_vtr/api/sessions')!.schema.safeParse([{ ...session(), newer_field: 1 }]).success).toBe(true);
    expect(routeOf('GET', '/_vtr/api/sites/default')!.route).toBe('GET /_vtr/api/sites/default');
  });
});

describe('the api layer', () => {
  it('src/api imports zod, @hono/zod-openapi, domain and version only (server and client import it, not the reverse)', () => {
    const dir = new URL('../../src/api/', import.meta.url);
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('management/rules.ts');
    for (const file of files) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      for (const [, spec] of text.matchAll(/from '([^']+)'/g)) {
        // A relative import, as the path under src/ it names.
        const target = spec.startsWith('.') ? new URL(spec, new URL(file, dir)).pathname.split('/src/').pop() : spec;
        expect(target, `${file} imports ${spec}`).toMatch(/^(zod|@hono\/zod-openapi|api\/[\w/-]+\.js|domain\/[\w/-]+\.js|version\.js)$/);
      }
    }
  });
});
