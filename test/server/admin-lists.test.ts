// What every management list shares: `?limit=` and `?site=` mean the same everywhere.
import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const LISTS = ['/sessions', '/checks', '/logs', '/notifications', '/webhooks', '/views'];

describe('management API: lists', () => {
  it('lists: an unknown ?site= is a 404 on every site-scoped list, never an empty page', async () => {
    h = harness();
    for (const path of LISTS) {
      const r = await h.admin('GET', `${path}?site=site_nope`);
      expect(r.status, path).toBe(404);
      expect(r.body.code, path).toBe('not_found');
      expect((await h.admin('GET', `${path}?site=${h.site.site_id}`)).status, path).toBe(200);
    }
  });

  it('lists: a bad ?limit= is a 400 naming the field', async () => {
    h = harness();
    for (const path of ['/sessions', '/checks', '/logs', '/notifications']) {
      for (const limit of ['0', 'abc', '10001', '1.5']) {
        const r = await h.admin('GET', `${path}?limit=${limit}`);
        expect(r.status, `${path} ${limit}`).toBe(400);
        expect(r.body).toMatchObject({ code: 'invalid_request', field: 'limit' });
      }
    }
  });
});
