// The sessions filter given a site or saved view id (copied from the sites or views page): it
// lists that site's sessions, or the view's matching sessions, instead of "unknown field".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';
import { page } from '../helpers/console-requests.js';

let h: Harness;
beforeAll(() => {
  h = harness();
});
afterAll(() => h?.close());

const go = (text: string) => page(h, `/_vtr/console/sessions?where=${encodeURIComponent(` ${text} `)}`);

describe('console: ids in the sessions filter', () => {
  it('sessions filter: a site id lists that site\'s sessions, a saved view id its matching sessions', async () => {
    const site = h.site.site_id;
    expect((await go(site)).headers.get('location')).toBe(`/_vtr/console/sessions?site=${site}`);
    const view = (await h.admin('POST', `/sites/${site}/views`, { name: 'Paid', filter: 'channel = paid' })).body;
    expect(view.saved_view_id, JSON.stringify(view)).toMatch(/^view_/);
    const where = new URLSearchParams({ where: 'channel = paid', site }).toString();
    expect((await go(view.saved_view_id)).headers.get('location')).toBe(`/_vtr/console/sessions?${where}`);
  });

  it('sessions filter: a site or saved view id that names nothing says so, not "unknown field"', async () => {
    for (const [id, says] of [['site_' + 'Z'.repeat(16), 'is a site id'], ['view_' + 'Z'.repeat(16), 'is a saved view id']]) {
      const r = await go(id);
      expect(r.status, id).toBe(200);
      expect(r.text, id).not.toContain('unknown field');
      expect(r.text, id).toContain(`${id} ${says}`);
    }
  });

  it('sessions filter: an IP address lists the sessions from it, as the filter ip = "…" (kept with the site)', async () => {
    const site = h.site.site_id;
    const v6 = await h.createSession({ ip: '2001:db8::7' });
    const cases: Array<[string, string]> = [['198.51.100.7', '198.51.100.7'], ['2001:DB8:0::7', '2001:db8::7'], ['[2001:db8::7]:443', '2001:db8::7'], ['198.51.100.7:8080', '198.51.100.7']];
    for (const [pasted, ip] of cases) {
      const r = await page(h, `/_vtr/console/sessions?${new URLSearchParams({ where: pasted, site })}`);
      expect(r.status, pasted).toBe(302);
      expect(r.headers.get('location'), pasted).toBe(`/_vtr/console/sessions?${new URLSearchParams({ where: `ip = "${ip}"`, site })}`);
    }
    const listed = await page(h, `/_vtr/console/sessions?${new URLSearchParams({ where: 'ip = "2001:db8::7"' })}`);
    expect(listed.text).toContain(v6.session_id);
    expect(listed.text).not.toContain('unknown field');
  });
});
