// The saved view, webhook and token forms posted without a site (a hand-made or scripted post, a page
// whose site list was empty): "site: required" at the site picker, as the rules form says, not
// 'site "" not found'.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';
import { form } from '../helpers/console-requests.js';

let h: Harness;
beforeAll(() => {
  h = harness();
});
afterAll(() => h?.close());

describe('console: forms without a site', () => {
  it('views and webhooks forms: no site_id says site: required at the site picker, keeping what was typed', async () => {
    const cases: Array<[string, Record<string, string>, RegExp, string]> = [
      ['/_vtr/console/views', { name: 'Keep me', filter: 'channel = paid', trigger_webhooks: 'on' }, /<select id="view-site"[^>]*aria-invalid="true"[^>]*autofocus/, 'value="Keep me"'],
      ['/_vtr/console/webhooks', { url: 'http://127.0.0.1:9/keep' }, /<select id="hook-site"[^>]*aria-invalid="true"[^>]*autofocus/, 'value="http://127.0.0.1:9/keep"'],
    ];
    for (const [path, body, picker, kept] of cases) {
      for (const sent of [body, { ...body, site_id: '' }]) {
        const r = await form(h, path, sent);
        expect(r.status, path).toBe(400);
        const text = await r.text();
        expect(text, path).toMatch(/role="alert" id="form-error"><p>site: required: /);
        expect(text, path).not.toContain('not found');
        expect(text, path).toMatch(picker);
        expect(text, path).toContain(kept);
      }
    }
    expect(h.emulator.deps.views!.list(h.site.site_id)).toEqual([]);
    expect((await h.admin('GET', '/webhooks')).body).toEqual([]);
  });

  it('tokens form: no site_id says site: required and how to pick one, with the way back, not \'site "" not found\'', async () => {
    for (const sent of [{}, { site_id: '' }] as Record<string, string>[]) {
      const r = await form(h, '/_vtr/console/tokens', sent);
      expect(r.status).toBe(400);
      const text = await r.text();
      expect(text).toMatch(/role="alert"><p>site: required: pick the site the token is for/);
      expect(text).not.toContain('not found');
      expect(text).toContain('<a href="/_vtr/console/tokens">Back to access tokens</a>');
    }
    expect(h.emulator.deps.sites.tokens.list(h.site.site_id)).toHaveLength(1);
  });

  it('views form: a site that is gone is named at the site picker', async () => {
    const r = await form(h, '/_vtr/console/views', { site_id: 'site_gone', name: 'Keep me', filter: 'channel = paid' });
    expect(r.status).toBe(400);
    const text = await r.text();
    expect(text).toContain('site site_gone not found');
    expect(text).toMatch(/<select id="view-site"[^>]*aria-invalid="true"/);
  });
});
