// The webhooks, saved views and access tokens pages in a real browser (headless Chromium through
// playwright-core) against `vtr serve`: one made or deleted (a token: revoked) elsewhere (the CLI,
// the API, another tab) shows on the open list and is announced to screen readers, as on the sites
// and rules pages.
import { describe, expect, it } from 'vitest';
import { BROWSER_TESTS_RUN } from '../helpers/browser.js';
import { consoleInBrowser } from '../helpers/console-browser.js';

const suite = BROWSER_TESTS_RUN ? describe : describe.skip;

suite('webhooks, saved views and access tokens lists in the console (browser)', () => {
  const live = consoleInBrowser();
  const { api, poll } = live;
  const announced = () => live.page.locator('#announce').textContent();

  it('webhooks page: a webhook made or deleted elsewhere is announced', async () => {
    const site = live.server.defaultSite!.site_id;
    await live.page.goto(`${live.server.origin}/_vtr/console/webhooks`);
    await live.page.locator('#live.on').waitFor();
    const hook = await api<{ webhook_id: string }>('POST', `/sites/${site}/webhooks`, { url: 'http://127.0.0.1:9/made' });
    await poll(() => live.page.locator(`#hook-${hook.webhook_id}`).count()).toBe(1);
    await poll(announced).toBe(`New webhook http://127.0.0.1:9/made (${hook.webhook_id})`);
    await api('DELETE', `/webhooks/${hook.webhook_id}`);
    await poll(() => live.page.locator(`#hook-${hook.webhook_id}`).count()).toBe(0);
    await poll(announced).toBe(`Webhook http://127.0.0.1:9/made (${hook.webhook_id}) deleted`);
  });

  it('saved views page: a view made, changed or deleted elsewhere shows on the open list (a new or deleted one announced), the form keeping what is typed', async () => {
    const site = live.server.defaultSite!.site_id;
    await live.page.goto(`${live.server.origin}/_vtr/console/views`);
    await live.page.locator('#live.on').waitFor();
    await live.page.fill('#view-name', 'Half typed');
    const view = await api<{ saved_view_id: string }>('POST', `/sites/${site}/views`, { name: 'Made elsewhere', filter: 'risk_level = invalid' });
    const row = live.page.locator(`#view-${view.saved_view_id}`);
    await poll(() => row.count()).toBe(1);
    await poll(announced).toBe(`New saved view Made elsewhere (${view.saved_view_id})`);
    await api('PATCH', `/views/${view.saved_view_id}`, { filter: 'risk_level = suspicious' });
    await poll(() => row.innerText()).toContain('risk_level = suspicious');
    await api('DELETE', `/views/${view.saved_view_id}`);
    await poll(() => row.count()).toBe(0);
    await poll(announced).toBe(`Saved view Made elsewhere (${view.saved_view_id}) deleted`);
    expect(await live.page.inputValue('#view-name')).toBe('Half typed');
  });

  it('access tokens page: a token made or revoked elsewhere shows on the open list and is announced, the form keeping its pick', async () => {
    const { site_id: site, name } = await api<{ site_id: string; name: string }>('GET', '/sites/default');
    const other = await api<{ site_id: string }>('POST', '/sites', { name: 'Token site' });
    await live.page.goto(`${live.server.origin}/_vtr/console/tokens`);
    await live.page.locator('#live.on').waitFor();
    await live.page.selectOption('#token-site', other.site_id);
    const made = await api<{ token: string }>('POST', `/sites/${site}/tokens`);
    const short = `${made.token.slice(0, 12)}…${made.token.slice(-4)}`;
    const row = live.page.locator(`#token-${made.token}`);
    await poll(() => row.count()).toBe(1);
    await poll(announced).toBe(`New access token ${short} of ${name}`);
    await api('DELETE', `/tokens/${made.token}`);
    await poll(() => row.innerText()).toContain('revoked');
    await poll(announced).toBe(`Access token ${short} of ${name} revoked`);
    expect(await live.page.inputValue('#token-site')).toBe(other.site_id);
    await api('DELETE', `/sites/${other.site_id}`);
  });

  it('saved view page: the view deleted elsewhere is said on the open page at once, what is typed kept and Save turned off', async () => {
    const site = live.server.defaultSite!.site_id;
    const view = await api<{ saved_view_id: string }>('POST', `/sites/${site}/views`, { name: 'Open elsewhere', filter: 'risk_level = invalid' });
    await live.page.goto(`${live.server.origin}/_vtr/console/views/${view.saved_view_id}`);
    await live.page.locator('#live.on').waitFor();
    await live.page.fill('#view-filter', 'risk_level = suspicious');
    expect(await live.page.locator('#view-gone').isVisible()).toBe(false);
    await api('DELETE', `/views/${view.saved_view_id}`);
    const said = `The saved view Open elsewhere (${view.saved_view_id}) was deleted elsewhere: saving or deleting it here is no longer possible.`;
    await poll(() => live.page.locator('#view-gone').isVisible()).toBe(true);
    expect(await live.page.locator('#view-gone').innerText()).toContain(said);
    await poll(announced).toBe(said);
    expect(await live.page.getByRole('button', { name: 'Save view' }).isDisabled()).toBe(true);
    expect(await live.page.getByRole('button', { name: 'Delete view' }).isDisabled()).toBe(true);
    expect(await live.page.inputValue('#view-filter')).toBe('risk_level = suspicious');
  });

  it('saved view page: a change elsewhere shows in the untouched form at once; over what is typed, a notice says so and Save is refused once', async () => {
    const site = live.server.defaultSite!.site_id;
    const view = await api<{ saved_view_id: string }>('POST', `/sites/${site}/views`, { name: 'Open here', filter: 'risk_level = invalid' });
    const id = view.saved_view_id;
    await live.page.goto(`${live.server.origin}/_vtr/console/views/${id}`);
    await live.page.locator('#live.on').waitFor();
    await api('PATCH', `/views/${id}`, { name: 'Renamed elsewhere', filter: 'channel = paid' });
    await poll(() => live.page.inputValue('#view-filter')).toBe('channel = paid');
    expect(await live.page.inputValue('#view-name')).toBe('Renamed elsewhere');
    expect(await live.page.getByRole('heading', { level: 1 }).innerText()).toBe('Saved view Renamed elsewhere');
    await poll(announced).toBe(`The saved view Renamed elsewhere (${id}) was changed elsewhere: the form shows the new values.`);
    expect(await live.page.locator('#view-changed').isVisible()).toBe(false);

    await live.page.fill('#view-filter', 'channel = referral');
    await api('PATCH', `/views/${id}`, { filter: 'channel = direct' });
    await poll(() => live.page.locator('#view-changed').isVisible()).toBe(true);
    await poll(announced).toContain(`The saved view Renamed elsewhere (${id}) was changed elsewhere: what is typed below is kept`);
    expect(await live.page.inputValue('#view-filter')).toBe('channel = referral');
    // Save does not write over the change unseen; the page says so, what is typed kept.
    await live.page.getByRole('button', { name: 'Save view' }).click();
    await live.page.locator('#form-error').waitFor();
    expect(await live.page.locator('#form-error').innerText()).toContain('Not saved: the saved view was changed elsewhere since this form was loaded.');
    expect(await live.page.inputValue('#view-filter')).toBe('channel = referral');
    expect((await api<{ filter: string }>('GET', `/views/${id}`)).filter).toBe('channel = direct');
    await live.page.getByRole('link', { name: 'load the new values' }).click();
    await poll(() => live.page.inputValue('#view-filter')).toBe('channel = direct');
  });

  it('webhook page: the webhook deleted elsewhere is said on the open page at once, its buttons turned off', async () => {
    const site = live.server.defaultSite!.site_id;
    const hook = await api<{ webhook_id: string }>('POST', `/sites/${site}/webhooks`, { url: 'http://127.0.0.1:9/open' });
    await live.page.goto(`${live.server.origin}/_vtr/console/webhooks/${hook.webhook_id}`);
    await live.page.locator('#live.on').waitFor();
    expect(await live.page.locator('#webhook-gone').isVisible()).toBe(false);
    await api('DELETE', `/webhooks/${hook.webhook_id}`);
    const said = `The webhook http://127.0.0.1:9/open (${hook.webhook_id}) was deleted elsewhere, with its events: its buttons here are turned off.`;
    await poll(() => live.page.locator('#webhook-gone').isVisible()).toBe(true);
    expect(await live.page.locator('#webhook-gone').innerText()).toContain(said);
    await poll(announced).toBe(said);
    expect(await live.page.getByRole('button', { name: /^Delete webhook/ }).isDisabled()).toBe(true);
    expect(await live.page.getByRole('button', { name: /^Disable webhook/ }).isDisabled()).toBe(true);
    expect(await live.page.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
  });

  it('views, webhooks and access tokens pages: a site made, renamed or deleted elsewhere shows in the create form\'s site choices, the pick and what is typed kept', async () => {
    const forms = [
      { path: 'views', select: '#view-site', field: '#view-name' },
      { path: 'webhooks', select: '#hook-site', field: '#hook-url' },
      { path: 'tokens', select: '#token-site', field: null },
    ];
    for (const f of forms) {
      const picked = await api<{ site_id: string }>('POST', '/sites', { name: `Picked for ${f.path}` });
      await live.page.goto(`${live.server.origin}/_vtr/console/${f.path}`);
      await live.page.locator('#live.on').waitFor();
      await live.page.selectOption(f.select, picked.site_id);
      if (f.field) await live.page.fill(f.field, 'http://127.0.0.1:9/half');
      const choices = () => live.page.locator(`${f.select} option`).allInnerTexts();
      const made = await api<{ site_id: string }>('POST', '/sites', { name: `Made for ${f.path}` });
      await poll(() => choices().then((c) => c.some((t) => t.startsWith(`Made for ${f.path} (${made.site_id}`)))).toBe(true);
      await api('PATCH', `/sites/${made.site_id}`, { name: `Renamed for ${f.path}` });
      await poll(() => choices().then((c) => c.some((t) => t.startsWith(`Renamed for ${f.path} (${made.site_id}`)))).toBe(true);
      await api('DELETE', `/sites/${made.site_id}`);
      await poll(() => choices().then((c) => c.some((t) => t.includes(made.site_id)))).toBe(false);
      expect(await live.page.inputValue(f.select)).toBe(picked.site_id);
      if (f.field) expect(await live.page.inputValue(f.field)).toBe('http://127.0.0.1:9/half');
      // The picked site deleted: the choice goes back to "Pick a site", never to another site unasked.
      await api('DELETE', `/sites/${picked.site_id}`);
      await poll(() => live.page.inputValue(f.select)).toBe('');
      expect(await live.page.locator(`${f.select} option:checked`).innerText()).toBe('Pick a site');
      await poll(announced).toMatch(new RegExp(`^The site Picked for ${f.path} \\(${picked.site_id}.*\\) is no longer there: pick another$`));
    }
  }, 90_000);
});
