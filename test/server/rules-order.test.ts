// Custom rules are listed and evaluated in the order they were created, whatever the clock said then
// (a manual or frozen clock set ahead, then a system clock on the same file), and keep that order
// through a state export and import.
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createEmulator } from '../../src/emulator.js';
import { harness, type Harness } from '../helpers/emulator.js';
import { tempDir } from '../helpers/vtr-process.js';

type Doc = { tables: Record<string, Array<Record<string, unknown>>> };
type Rule = { rule_id: string; type: string; name: string; created_at: string };
type Admin = Pick<Harness, 'admin' | 'api' | 'site' | 'close'>;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The file opened again (the harness wants a fresh one): its default site, requests through the app. */
function reopen(dbPath: string): Admin {
  const emulator = createEmulator({ dbPath });
  const site = emulator.deps.sites.defaultSite();
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await emulator.app.request(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any, headers: res.headers };
  };
  return {
    site,
    admin: (method, path, body) => call(method, `/_vtr/api${path}`, body),
    api: (method, path, o = {}) => call(method, `/api/v1${path}`, o.body),
    close: () => emulator.close(),
  };
}

const customNames = async (h: Admin) =>
  (await h.admin<Rule[]>('GET', '/sites/default/rules')).body.filter((r) => r.type === 'custom').map((r) => r.name);

async function createRule(h: Admin, name: string): Promise<void> {
  const r = await h.admin('POST', '/sites/default/rules', { name, filter: 'risk_level = invalid', action: 'review' });
  expect(r.status).toBe(201);
}

/** A file where `ahead` was created under a manual clock set to 2031, then `later` under the system clock. */
async function fileWithClockGoingBack(): Promise<string> {
  const dir = tempDir('vtr-rule-order-');
  dirs.push(dir);
  const dbPath = join(dir, 'vtr.db');
  const manual = harness({ dbPath, clock: 'manual' });
  try {
    expect((await manual.admin('POST', '/clock/set', { timestamp: '2031-01-01T00:00:00' })).status).toBe(200);
    await createRule(manual, 'ahead');
  } finally {
    await manual.close();
  }
  return dbPath;
}

describe('rules: order of creation', () => {
  it('rules list: a rule created under a clock set ahead stays before one created later under the system clock', async () => {
    const dbPath = await fileWithClockGoingBack();
    const h = reopen(dbPath);
    try {
      await createRule(h, 'later');
      expect(await customNames(h)).toEqual(['ahead', 'later']);
      // Evaluation follows the list: a check both match reports them in that order.
      const check = await h.api<{ rules: Array<{ name: string }> }>('POST', '/event', { token: null, body: { secret_key: h.site.secret_key, ip: '203.0.113.7' } });
      expect(check.body.rules.map((r) => r.name).filter((n) => n === 'ahead' || n === 'later')).toEqual(['ahead', 'later']);
    } finally {
      await h.close();
    }
  });

  it('state export / import: rules keep their order; an export without it imports in created_at order', async () => {
    const dbPath = await fileWithClockGoingBack();
    const a = reopen(dbPath);
    const b = harness();
    try {
      await createRule(a, 'later');
      for (const name of ['third', 'fourth', 'fifth']) await createRule(a, name);
      const doc = (await a.admin<Doc>('GET', '/state')).body;
      expect((await b.admin('PUT', '/state', doc)).status).toBe(200);
      expect(await customNames(b)).toEqual(['ahead', 'later', 'third', 'fourth', 'fifth']);

      // An export from before rules had an order of their own: created_at decides, as it did then.
      const older = { ...doc, tables: { ...doc.tables, rules: doc.tables.rules.map(({ seq: _seq, ...row }) => row) } };
      expect((await b.admin('PUT', '/state', older)).status).toBe(200);
      expect(await customNames(b)).toEqual(['later', 'third', 'fourth', 'fifth', 'ahead']);
      // Rules created after such an import come after every imported one.
      await createRule(b, 'new');
      expect((await customNames(b)).at(-1)).toBe('new');
    } finally {
      await a.close();
      await b.close();
    }
  });
});
