// A saved view's or rule's form sent after the view or rule was changed elsewhere (the CLI, the API,
// another tab) is not saved over that change unasked: the page comes back with what was typed and
// says so; sent again from there, it saves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';
import { form, page } from '../helpers/console-requests.js';

const C = '/_vtr/console';
let h: Harness;
beforeAll(() => {
  h = harness();
});
afterAll(() => h?.close());

/** The version the page's form was loaded with (its hidden field). */
const versionIn = (text: string) => /name="version" value="([^"]+)"/.exec(text)?.[1];

describe('console: a save after a change elsewhere', () => {
  const cases = [
    {
      what: 'saved view',
      make: async () => (await h.admin('POST', `/sites/${h.site.site_id}/views`, { name: 'Opened', filter: 'channel = paid' })).body.saved_view_id as string,
      path: (id: string) => `${C}/views/${id}`,
      api: (id: string) => `/views/${id}`,
      typed: <Record<string, string>>{ name: 'Typed here', filter: 'channel = referral', trigger_webhooks: 'on' },
      said: 'Not saved: the saved view was changed elsewhere since this form was loaded.',
    },
    {
      what: 'rule',
      make: async () => (await h.admin('POST', `/sites/${h.site.site_id}/rules`, { name: 'Opened', filter: 'risks contains tor', action: 'block' })).body.rule_id as string,
      path: (id: string) => `${C}/rules/${h.site.site_id}/${id}`,
      api: (id: string) => `/sites/${h.site.site_id}/rules/${id}`,
      typed: <Record<string, string>>{ name: 'Typed here', filter: 'risks contains vpn', action: 'review', enabled: 'on' },
      said: 'Not saved: the rule was changed elsewhere since this form was loaded.',
    },
  ];
  for (const c of cases) {
    it(`${c.what} page: Save after a change elsewhere is refused with what was typed kept; Save again writes over it`, async () => {
      const id = await c.make();
      const loaded = versionIn((await page(h, c.path(id))).text);
      expect(loaded).toBeTruthy();
      await h.admin('PATCH', c.api(id), { name: 'Changed elsewhere' });
      const stale = await form(h, c.path(id), { ...c.typed, version: loaded! });
      expect(stale.status).toBe(409);
      const text = await stale.text();
      expect(text).toContain(c.said);
      expect(text).toContain('value="Typed here"');
      expect(text).toContain(`href="${c.path(id)}">load the new values</a>`);
      expect((await h.admin('GET', c.api(id))).body.name).toBe('Changed elsewhere');
      const again = versionIn(text);
      expect(again).not.toBe(loaded);
      const saved = await form(h, c.path(id), { ...c.typed, version: again! });
      expect(saved.status).toBe(303);
      expect((await h.admin('GET', c.api(id))).body.name).toBe('Typed here');
    });
  }
});
