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
});
