// The console's "Not found" page for a saved view, webhook, rule, site or check that is gone links
// back to its own list, where the reader finds what is there now, not to the sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';
import { form, page } from '../helpers/console-requests.js';

let h: Harness;
beforeAll(() => {
  h = harness();
});
afterAll(() => h?.close());

/** The error page's back link: [href, text]. */
const backLink = (text: string) => {
  const m = /<\/div><p><a href="([^"]*)">([^<]*)<\/a><\/p>/.exec(text);
  return m ? [m[1], m[2]].map((s) => s.replaceAll('&amp;', '&')) : null;
};

describe('console: not found pages', () => {
  it('not found: a missing saved view, webhook, rule, site or check links back to its own list', async () => {
    const site = h.site.site_id;
    const cases: Array<[string, () => Promise<{ status: number; text: string }>, string, string]> = [
      ['view delete', async () => { const r = await form(h, '/_vtr/console/views/view_nope/delete', {}); return { status: r.status, text: await r.text() }; }, '/_vtr/console/views', 'Back to saved views'],
      ['view page', () => page(h, '/_vtr/console/views/view_nope'), '/_vtr/console/views', 'Back to saved views'],
      ['webhook page', () => page(h, '/_vtr/console/webhooks/wh_nope'), '/_vtr/console/webhooks', 'Back to webhooks'],
      ['webhook enable', async () => { const r = await form(h, '/_vtr/console/webhooks/wh_nope/enable', {}); return { status: r.status, text: await r.text() }; }, '/_vtr/console/webhooks', 'Back to webhooks'],
      ['webhook event page', () => page(h, '/_vtr/console/webhook-events/msg_nope'), '/_vtr/console/webhooks', 'Back to webhooks'],
      ['rule page', () => page(h, `/_vtr/console/rules/${site}/rule_nope`), `/_vtr/console/rules?site=${site}`, 'Back to rules'],
      ['rule of a missing site', () => page(h, '/_vtr/console/rules/site_nope/rule_nope'), '/_vtr/console/rules', 'Back to rules'],
      ['site rotate', async () => { const r = await form(h, '/_vtr/console/sites/site_nope/rotate', {}); return { status: r.status, text: await r.text() }; }, '/_vtr/console/sites', 'Back to sites & keys'],
      ['check page', () => page(h, '/_vtr/console/checks/chk_nope'), '/_vtr/console/checks', 'Back to checks'],
      ['session page', () => page(h, '/_vtr/console/sessions/ses_nope'), '/_vtr/console/sessions', 'Back to sessions'],
    ];
    for (const [name, get, href, label] of cases) {
      const r = await get();
      expect(r.status, name).toBe(404);
      expect(r.text, name).toContain('<h1>Not found</h1>');
      expect(backLink(r.text), name).toEqual([href, label]);
    }
  });

  it('not found: a console address no page has still links to the sessions', async () => {
    const r = await page(h, '/_vtr/console/nosuch');
    expect(r.status).toBe(404);
    expect(backLink(r.text)).toEqual(['/_vtr/console/sessions', 'Back to sessions']);
  });
});
