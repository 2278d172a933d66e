// The Sites & keys page in a real browser (headless Chromium through playwright-core) against
// `vtr serve`: a site made, renamed or given new keys elsewhere (the CLI, the API, another tab)
// shows on the open page, the reader's place (focus, an open Settings) kept.
import { describe, expect, it } from 'vitest';
import { BROWSER_TESTS_RUN } from '../helpers/browser.js';
import { consoleInBrowser } from '../helpers/console-browser.js';

const suite = BROWSER_TESTS_RUN ? describe : describe.skip;

suite('sites in the console (browser)', () => {
  const live = consoleInBrowser();
  const { api, poll } = live;

  it('sites page: a site made, renamed or given new keys elsewhere shows at once (a new or deleted one announced); focus and an open Settings stay where they were', async () => {
    const site = await api<{ site_id: string; name: string }>('GET', '/sites/default');
    const name = `${site.name} (${site.site_id})`;
    await live.page.goto(`${live.server.origin}/_vtr/console/sites`);
    await live.page.locator('#live.on').waitFor();
    await live.page.getByRole('group').filter({ has: live.page.getByLabel(`Settings of ${name}`) }).locator('summary').click();
    await live.page.getByRole('button', { name: `Copy site id of ${name}` }).focus();

    const made = await api<{ site_id: string }>('POST', '/sites', { name: 'Made elsewhere' });
    await poll(() => live.page.getByRole('heading', { name: 'Made elsewhere', level: 2 }).count()).toBe(1);
    await poll(() => live.page.locator('#announce').textContent()).toBe(`New site Made elsewhere (${made.site_id})`);
    await api('PATCH', `/sites/${made.site_id}`, { name: 'Renamed elsewhere' });
    await poll(() => live.page.getByRole('heading', { name: 'Renamed elsewhere', level: 2 }).count()).toBe(1);
    const rotated = await api<{ site_key: string }>('POST', `/sites/${site.site_id}/keys/rotate`);
    await poll(() => live.page.locator(`#site-card-${site.site_id}`).innerText()).toContain(rotated.site_key);

    expect(await live.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Copy site id of ${name}`);
    // A site deleted elsewhere leaves the page, and screen readers hear of it as of a new one.
    await api('DELETE', `/sites/${made.site_id}`);
    await poll(() => live.page.locator(`#site-card-${made.site_id}`).count()).toBe(0);
    await poll(() => live.page.locator('#announce').textContent()).toBe(`Site Renamed elsewhere (${made.site_id}) deleted`);
    expect(await live.page.locator(`#site-card-${site.site_id} details:has(summary[aria-label="Settings of ${name}"])`).getAttribute('open')).not.toBeNull();
  });
});
