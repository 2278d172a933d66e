// Country codes in filters: lower case is the same country; a code that names none is refused
// where a filter is typed, and read (matching no one) where it was stored before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';

let h: Harness;
beforeAll(() => {
  h = harness();
});
afterAll(() => h?.close());

describe('filters: country codes', () => {
  it('views, rules, sessions ?where=: country_code = XX (no such country) is a 400 invalid_filter with its position; de is taken', async () => {
    for (const [method, path, body] of [
      ['POST', '/sites/default/views', { name: 'x', filter: 'country_code = XX' }],
      ['POST', '/sites/default/rules', { name: 'x', filter: 'page_views > 1 and country_code in (DE, xx)', action: 'block' }],
      ['GET', `/sessions?where=${encodeURIComponent('country_code != XX')}`, undefined],
    ] as const) {
      const r = await h.admin(method, path, body);
      expect(r.status, path).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_filter', position: expect.any(Number) });
      expect(r.body.message).toMatch(/^unknown country code "(XX|xx)" at position \d+: expected an ISO 3166-1 alpha-2 code, e\.g\. DE/);
    }
    expect((await h.admin('POST', '/sites/default/views', { name: 'de', filter: 'country_code = de' })).status).toBe(201);
  });

  it('state import: a stored filter with an unknown country code still imports', async () => {
    const doc = (await h.admin('GET', '/state')).body;
    doc.tables.saved_views = [{ ...doc.tables.saved_views[0], filter: 'country_code = XX' }];
    expect((await h.admin('PUT', '/state', doc)).status).toBe(200);
    expect((await h.admin('GET', '/views')).body.map((v: { filter: string }) => v.filter)).toEqual(['country_code = XX']);
  });
});
