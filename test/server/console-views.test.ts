// The console's saved view pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';
import { form as post, page as get } from '../helpers/console-requests.js';

let h: Harness;
beforeAll(() => {
  h = harness();
});
afterAll(() => h?.close());

const page = (path: string) => get(h, path);
const form = (path: string, body: Record<string, string>) => post(h, path, body);

describe('console: saved views', () => {
  it('view form: a filter with a line break (as the API takes it) is shown in a text area, which keeps it, not a text field, which drops its line breaks', async () => {
    const views = h.emulator.deps.views!;
    const view = views.create(h.site.site_id, { name: 'Two lines', filter: 'city = "New\nYork"\nor country_code = DE', trigger_webhooks: false });
    const edit = (await page(`/_vtr/console/views/${view.saved_view_id}`)).text;
    // A text field's value loses its line breaks in a browser: "New\nYork" would be saved as "NewYork".
    expect(edit).not.toMatch(/<input[^>]*id="view-filter"/);
    expect(edit).toMatch(/<textarea id="view-filter" name="filter"[^>]*>\ncity = &quot;New\nYork&quot;\nor country_code = DE<\/textarea>/);
    // A browser sends a text area's line breaks as CRLF: saved as the LF the filter had, not changed.
    const saved = await form(`/_vtr/console/views/${view.saved_view_id}`, { name: 'Renamed', filter: 'city = "New\r\nYork"\r\nor country_code = DE' });
    expect(saved.status).toBe(303);
    expect(views.get(view.saved_view_id)).toMatchObject({ name: 'Renamed', filter: 'city = "New\nYork"\nor country_code = DE' });
    // One line: the text field, as before.
    const single = views.create(h.site.site_id, { name: 'One line', filter: 'country_code = FR', trigger_webhooks: false });
    expect((await page(`/_vtr/console/views/${single.saved_view_id}`)).text).toMatch(/<input type="text" id="view-filter" name="filter"[^>]* value="country_code = FR"/);
  });
});
