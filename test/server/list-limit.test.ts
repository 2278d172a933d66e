// ?limit= of every management list reads as the CLI's --limit does: digits only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';

let h: Harness;
beforeAll(() => {
  h = harness();
});
afterAll(() => h?.close());

describe('management API: ?limit=', () => {
  it('limit: 0x10, 1e1 or 2.0 is a 400 naming limit on every list, not 16, 10 or 2', async () => {
    const lists = ['/sessions', '/checks', '/logs', '/notifications', '/views', '/webhooks'];
    for (const list of lists) {
      expect((await h.admin('GET', `${list}?limit=5`)).status, list).toBe(200);
      for (const limit of ['0x10', '1e1', '2.0', '+3']) {
        const r = await h.admin('GET', `${list}?limit=${encodeURIComponent(limit)}`);
        expect(r.status, `${list}?limit=${limit}`).toBe(400);
        expect(r.body.message, `${list}?limit=${limit}`).toContain('limit');
      }
    }
  });
});
