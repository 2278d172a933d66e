// Contract §2: a frozen clock keeps its "now" across restarts and time never goes back. Readings
// within the frozen millisecond are a microsecond apart; after a restart on the same file they go on
// after every time written before it, so lists stay in order and no record was changed before it
// was made.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator.js';

const dirs: string[] = [];
let emu: ReturnType<typeof createEmulator> | null = null;
afterEach(() => {
  emu?.close();
  emu = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const api = async (e: ReturnType<typeof createEmulator>, method: string, path: string, body?: unknown) => {
  const res = await e.app.request(`/_vtr/api${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
  return res.json() as Promise<Record<string, unknown>>;
};

describe('frozen clock across a restart', () => {
  it('serve --clock frozen restarted on the same database: what it writes next is timestamped after what it wrote before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vtr-frozen-'));
    dirs.push(dir);
    const dbPath = join(dir, 'vtr.db');
    emu = createEmulator({ dbPath, clock: 'frozen' });
    const first = await api(emu, 'POST', '/sites/default/sessions', {});
    let latest = first;
    for (let i = 0; i < 5; i++) latest = await api(emu, 'POST', '/sites/default/sessions', {});
    const before = await api(emu, 'GET', `/sessions/${first.session_id as string}`);
    emu.close();

    emu = createEmulator({ dbPath, clock: 'frozen' });
    const view = await api(emu, 'POST', '/sites/default/views', { name: 'All', filter: 'page_views >= 1' });
    const last = await api(emu, 'POST', '/sites/default/sessions', {});
    // Same frozen millisecond on both sides of the restart, yet in the order written.
    expect((view.created_at as string).slice(0, 23)).toBe((before.created_at as string).slice(0, 23));
    expect(view.created_at as string > (before.updated_at as string)).toBe(true);
    expect(view.created_at as string > (latest.created_at as string)).toBe(true);
    expect(last.created_at as string > (view.created_at as string)).toBe(true);
    const list = (await api(emu, 'GET', '/sessions?site=default')) as unknown as Array<{ session_id: string }> | { sessions: Array<{ session_id: string }> };
    const ids = (Array.isArray(list) ? list : list.sessions).map((s) => s.session_id);
    expect(ids[0]).toBe(last.session_id); // newest first
  });
});
