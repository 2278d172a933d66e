// Bidi controls in a saved view's or rule's filter: refused where a filter is saved, as in names,
// with the filter's position; a filter stored before (an older export) still imports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';

let h: Harness;
beforeAll(() => {
  h = harness();
});
afterAll(() => h?.close());

const FILTER = 'source = "a\u202Eb"';
const REFUSED = {
  code: 'invalid_filter',
  message: 'U+202E at position 11: a filter must not contain bidirectional controls (U+202A–U+202E, U+2066–U+2069): they reorder the text shown after them',
  field: 'filter',
  position: 11,
};

describe('filters: bidi controls', () => {
  it('views and rules, create and update: a filter holding a bidi control is a 400 invalid_filter with its position, and nothing changes', async () => {
    const site = h.site.site_id;
    const view = (await h.admin('POST', `/sites/${site}/views`, { name: 'v', filter: 'page_views >= 1' })).body.saved_view_id as string;
    const rule = (await h.admin('POST', `/sites/${site}/rules`, { name: 'r', filter: 'page_views >= 1', action: 'review' })).body.rule_id as string;
    const before = [(await h.admin('GET', `/views/${view}`)).body, (await h.admin('GET', `/sites/${site}/rules/${rule}`)).body];
    for (const [method, path, body] of [
      ['POST', `/sites/${site}/views`, { name: 'x', filter: FILTER }],
      ['PATCH', `/views/${view}`, { filter: FILTER }],
      ['POST', `/sites/${site}/rules`, { filter: FILTER, action: 'review' }],
      ['PATCH', `/sites/${site}/rules/${rule}`, { filter: FILTER }],
    ] as const) {
      const r = await h.admin(method, path, body);
      expect({ path, method, status: r.status, body: r.body }).toEqual({ path, method, status: 400, body: REFUSED });
    }
    expect([(await h.admin('GET', `/views/${view}`)).body, (await h.admin('GET', `/sites/${site}/rules/${rule}`)).body]).toEqual(before);
  });

  it('state import: views and rules whose filter holds a bidi control, from an older export, still import', async () => {
    const site = h.site.site_id;
    await h.admin('POST', `/sites/${site}/views`, { name: 'v2', filter: 'page_views >= 1' });
    await h.admin('POST', `/sites/${site}/rules`, { name: 'r2', filter: 'page_views >= 1', action: 'review' });
    const doc = (await h.admin('GET', '/state')).body;
    doc.tables.saved_views = doc.tables.saved_views.map((v: object) => ({ ...v, filter: FILTER }));
    doc.tables.rules = doc.tables.rules.map((r: { filter: string | null }) => (r.filter === null ? r : { ...r, filter: FILTER }));
    const put = await h.admin('PUT', '/state', doc);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await h.admin('GET', '/views')).body.map((v: { filter: string }) => v.filter)).toContain(FILTER);
    expect((await h.admin('GET', `/sites/${site}/rules`)).body.map((r: { filter: string | null }) => r.filter)).toContain(FILTER);
    // And a view so imported can still be renamed without its filter being held to the new rule.
    const view = (await h.admin('GET', '/views')).body.find((v: { filter: string }) => v.filter === FILTER);
    expect((await h.admin('PATCH', `/views/${view.saved_view_id}`, { name: 'renamed' })).status).toBe(200);
  });
});
