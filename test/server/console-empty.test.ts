// The console's list pages with nothing to list: each says so in a sentence that tells how to make
// the first one (the form on the page, or the vtr command), not a table of headers alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';
import { page } from '../helpers/console-requests.js';

let h: Harness;
let shop: string;
beforeAll(() => {
  h = harness();
  shop = h.emulator.deps.sites.create({ name: 'Shop' }).site_id; // a site with no access token yet
});
afterAll(() => h?.close());

/** The text of the page's "nothing here" sentences, tags kept (to see <code>). */
const empties = (text: string) => [...text.matchAll(/<p class="empty"[^>]*>([\s\S]*?)<\/p>/g)].map((m) => m[1]);

describe('console: empty lists', () => {
  it('empty lists: sessions, checks, saved views, webhooks and tokens each say how to make the first, the command as code (no stray backticks)', async () => {
    const wanted: Record<string, RegExp> = {
      sessions: /No sessions yet[\s\S]*<code>vtr sessions create<\/code>/,
      checks: /No checks yet[\s\S]*<code>vtr check --email a@example.com<\/code>/,
      views: /No saved views yet: create one below[\s\S]*<code>vtr views create /,
      webhooks: /No webhooks yet: create one below[\s\S]*<code>vtr webhooks create /,
      tokens: /No access tokens yet: create one above[\s\S]*<code>vtr tokens create/,
    };
    for (const [path, says] of Object.entries(wanted)) {
      const r = await page(h, `/_vtr/console/${path}`);
      expect(r.status, path).toBe(200);
      const found = empties(r.text);
      expect(found.length, path).toBeGreaterThan(0);
      for (const e of found) expect(e, path).not.toContain('`');
      expect(found.join('\n'), path).toMatch(says);
    }
  });

  it('empty lists: a sessions filter that matches no one says no session matches it, not to make one', async () => {
    await h.createSession();
    const r = await page(h, `/_vtr/console/sessions?where=${encodeURIComponent('risk_level = invalid')}`);
    const found = empties(r.text).join('\n');
    expect(found).toContain('No sessions match this filter');
    expect(found).not.toContain('vtr sessions create');
  });

  it('empty lists: the checks of a site with none say that site has none and how to run one for it', async () => {
    await h.request('/api/v1/event', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: h.site.secret_key, email: 'a@example.com' }) });
    expect((await page(h, '/_vtr/console/checks')).text).not.toContain('No checks');
    const found = empties((await page(h, `/_vtr/console/checks?site=${shop}`)).text).join('\n');
    expect(found).toContain(`No checks of Shop (${shop}) yet`);
    expect(found).toContain(`<code>vtr check --site ${shop} --email a@example.com</code>`);
    expect(found).not.toContain('No checks yet: run one with');
    const gone = empties((await page(h, '/_vtr/console/checks?site=site_gone')).text).join('\n');
    expect(gone).toContain('No checks: there is no site site_gone');
  });
});
