// Sites, saved views and rules take the same names: 1 to 200 characters, not only white space, no
// control characters; any other is a 400 `invalid_request` naming `name`, on create and on update, and nothing changes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';

let h: Harness;
beforeEach(() => {
  h = harness();
});
afterEach(() => h.close());

const REFUSED: Array<[string, string]> = [
  ['', 'name: must not be empty'],
  ['   ', 'name: must not be empty or blank'],
  ['\t\n\u00a0', 'name: must not be empty or blank'],
  ['x'.repeat(201), 'name: must have at most 200 characters'],
  ['😀'.repeat(201), 'name: must have at most 200 characters'],
];

/** Each kind: where it is created (with what else it needs), and where an existing one is changed. */
async function kinds(): Promise<Array<{ kind: string; create: [string, Record<string, unknown>]; update: string }>> {
  const site = h.site.site_id;
  const view = (await h.admin('POST', `/sites/${site}/views`, { name: 'View', filter: 'page_views >= 1' })).body.saved_view_id as string;
  const rule = (await h.admin('POST', `/sites/${site}/rules`, { name: 'Rule', filter: 'risk_level = invalid', action: 'block' })).body.rule_id as string;
  return [
    { kind: 'site', create: ['/sites', {}], update: `/sites/${site}` },
    { kind: 'view', create: [`/sites/${site}/views`, { filter: 'page_views >= 1' }], update: `/views/${view}` },
    { kind: 'rule', create: [`/sites/${site}/rules`, { filter: 'risk_level = invalid', action: 'block' }], update: `/sites/${site}/rules/${rule}` },
    { kind: 'smart rule', create: [`/sites/${site}/rules`, { filter: 'risk_level = invalid', action: 'block' }], update: `/sites/${site}/rules/bot` },
  ];
}

describe('management API: names of sites, views and rules', () => {
  it('create and update: an empty, blank or too long name is a 400 naming name, for every kind alike', async () => {
    for (const { kind, create, update } of await kinds()) {
      const before = (await h.admin('GET', update)).body;
      for (const [name, message] of REFUSED) {
        const created = await h.admin('POST', create[0], { ...create[1], name });
        expect({ kind, name, status: created.status, body: created.body }).toEqual({ kind, name, status: 400, body: { code: 'invalid_request', message, field: 'name' } });
        const changed = await h.admin('PATCH', update, { name });
        expect({ kind, name, status: changed.status, body: changed.body }).toEqual({ kind, name, status: 400, body: { code: 'invalid_request', message, field: 'name' } });
      }
      expect((await h.admin('GET', update)).body, kind).toEqual(before);
    }
    // Nothing was created on the way: the default site, one view, one custom rule.
    expect((await h.admin('GET', '/sites')).body).toHaveLength(1);
    expect((await h.admin('GET', '/views')).body).toHaveLength(1);
  });

  it('create and update: a name of 200 characters, or with spaces around it, is kept as given', async () => {
    for (const { kind, create, update } of await kinds()) {
      // Characters are code points: 200 emoji are 200 characters (400 UTF-16 units).
      for (const name of ['y'.repeat(200), '😀'.repeat(200), '  Spaced  ']) {
        const created = await h.admin('POST', create[0], { ...create[1], name });
        expect(created.status, kind).toBe(201);
        expect(created.body.name).toBe(name);
        const changed = await h.admin('PATCH', update, { name });
        expect(changed.status, kind).toBe(200);
        expect(changed.body.name).toBe(name);
      }
    }
  });

  it('create and update: a name holding a control character (NUL, a line break, a tab) is a 400 naming name', async () => {
    const message = 'name: must not contain control characters (line breaks, tabs, NUL)';
    for (const { kind, create, update } of await kinds()) {
      const before = (await h.admin('GET', update)).body;
      for (const name of ['a\u0000b', 'two\nlines', 'cr\r', 'tab\there', 'bell\u0007', 'del\u007f', 'c1\u0085', 'sep\u2028']) {
        const created = await h.admin('POST', create[0], { ...create[1], name });
        expect({ kind, name, status: created.status, body: created.body }).toEqual({ kind, name, status: 400, body: { code: 'invalid_request', message, field: 'name' } });
        const changed = await h.admin('PATCH', update, { name });
        expect({ kind, name, status: changed.status, body: changed.body }).toEqual({ kind, name, status: 400, body: { code: 'invalid_request', message, field: 'name' } });
      }
      expect((await h.admin('GET', update)).body, kind).toEqual(before);
    }
  });

  it('create and update: a name holding a bidi embedding, override or isolate (U+202A–U+202E, U+2066–U+2069) is a 400 naming name', async () => {
    const message = 'name: must not contain bidirectional controls (U+202A–U+202E, U+2066–U+2069): they reorder the text shown after them';
    for (const { kind, create, update } of await kinds()) {
      const before = (await h.admin('GET', update)).body;
      for (const name of ['Invoice \u202Efdp.exe', 'lre\u202A', 'pdf\u202C', 'lri\u2066x', 'pdi\u2069']) {
        const created = await h.admin('POST', create[0], { ...create[1], name });
        expect({ kind, name, status: created.status, body: created.body }).toEqual({ kind, name, status: 400, body: { code: 'invalid_request', message, field: 'name' } });
        const changed = await h.admin('PATCH', update, { name });
        expect({ kind, name, status: changed.status, body: changed.body }).toEqual({ kind, name, status: 400, body: { code: 'invalid_request', message, field: 'name' } });
      }
      expect((await h.admin('GET', update)).body, kind).toEqual(before);
    }
  });

  it('create: a name in a right-to-left script, with the marks that set its direction (U+200E, U+200F), is kept as given', async () => {
    for (const { kind, create } of await kinds()) {
      const name = 'מבצע\u200F 2026\u200E';
      const created = await h.admin('POST', create[0], { ...create[1], name });
      expect(created.status, kind).toBe(201);
      expect(created.body.name).toBe(name);
    }
  });

  it('create: a rule without a name over a filter written on several lines is named on one line', async () => {
    const created = await h.admin('POST', `/sites/${h.site.site_id}/rules`, { filter: 'risk_level = invalid\n\tand channel = paid', action: 'block' });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('risk_level = invalid and channel = paid');
  });
});
