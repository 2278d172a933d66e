// The event stream tells only of what was committed: a reset or import that fails part way, or a
// public API write that fails in the turn's shared transaction, publishes nothing; the others'
// events come after their COMMIT.
import { afterEach, describe, expect, it } from 'vitest';
import { harnessPool, type Harness } from '../helpers/emulator.js';
import type { EmulatorEvent } from '../../src/events/bus.js';

const pool = harnessPool();
afterEach(pool.closeAll);

/** Every event published from now on, with whether a transaction was open when it went out. */
function listen(h: Harness): Array<{ type: string; inTransaction: boolean; data: Record<string, unknown> }> {
  const seen: Array<{ type: string; inTransaction: boolean; data: Record<string, unknown> }> = [];
  h.emulator.deps.bus.subscribe((e: EmulatorEvent) => seen.push({ type: e.type, inTransaction: h.emulator.store.inTransaction(), data: e.data }));
  return seen;
}
const refuseTokens = (h: Harness) =>
  h.emulator.store.db.exec("CREATE TEMP TRIGGER refuse_token BEFORE INSERT ON main.access_tokens BEGIN SELECT RAISE(ABORT, 'refused'); END");

describe('event stream after commit', () => {
  it('state reset: a reset that fails part way publishes no site.created', async () => {
    const h = pool.fresh();
    const seen = listen(h);
    refuseTokens(h);
    expect((await h.admin('POST', '/state/reset')).status).toBeGreaterThanOrEqual(400);
    expect(seen.map((e) => e.type)).toEqual([]);
  });

  it('state import: an import that fails part way publishes no site.created', async () => {
    const h = pool.fresh();
    const seen = listen(h);
    refuseTokens(h);
    expect((await h.admin('PUT', '/state', { vtr_state_version: 1, schema_version: 1, tables: {} })).status).toBeGreaterThanOrEqual(400);
    expect(seen.map((e) => e.type)).toEqual([]);
  });

  it('state reset: site.created and access_token.created go out after the commit, before state.replaced', async () => {
    const h = pool.fresh();
    const seen = listen(h);
    expect((await h.admin('POST', '/state/reset')).status).toBe(200);
    expect(seen.map((e) => e.type)).toEqual(['site.created', 'access_token.created', 'state.replaced']);
    expect(seen.every((e) => !e.inTransaction)).toBe(true);
  });

  it('state.replaced: says whether a reset (the request log cleared too) or an import (the log left alone) replaced the state', async () => {
    const h = pool.fresh();
    const seen = listen(h);
    const doc = (await h.admin('GET', '/state')).body;
    expect((await h.admin('PUT', '/state', doc)).status).toBe(200);
    expect((await h.admin('POST', '/state/reset')).status).toBe(200);
    expect(seen.filter((e) => e.type === 'state.replaced').map((e) => e.data)).toEqual([{ reason: 'import' }, { reason: 'reset' }]);
  });
});
