// The rules page in a real browser (headless Chromium through playwright-core) against `vtr serve`:
// a rule made, changed or deleted elsewhere (the CLI, another tab) shows on the open page, and so
// does a site made or renamed elsewhere in the page's site links; a rule's page says when its rule
// is deleted elsewhere, and follows a change made elsewhere (or says so, over what is typed).
import { describe, expect, it } from 'vitest';
import { BROWSER_TESTS_RUN } from '../helpers/browser.js';
import { consoleInBrowser } from '../helpers/console-browser.js';

const suite = BROWSER_TESTS_RUN ? describe : describe.skip;

suite('rules in the console (browser)', () => {
  const live = consoleInBrowser();
  const { api, poll } = live;

  it('rules page: a rule made, changed or deleted elsewhere shows on the open page (a new or deleted one announced), the form keeping what is typed', async () => {
    const site = live.server.defaultSite!.site_id;
    await live.page.goto(`${live.server.origin}/_vtr/console/rules?site=${site}`);
    await live.page.locator('#live.on').waitFor();
    await live.page.fill('#rule-name', 'Half typed');
    const rule = await api<{ rule_id: string }>('POST', `/sites/${site}/rules`, { name: 'Made elsewhere', filter: 'risks contains tor', action: 'block' });
    const row = live.page.locator(`#rule-${rule.rule_id}`);
    await poll(() => row.count()).toBe(1);
    // Screen readers hear of the new row, as they do of a new session.
    await poll(() => live.page.locator('#announce').textContent()).toBe('New rule Made elsewhere');
    await api('PATCH', `/sites/${site}/rules/${rule.rule_id}`, { enabled: false });
    await poll(() => row.innerText()).toContain('disabled');
    await api('DELETE', `/sites/${site}/rules/${rule.rule_id}`);
    await poll(() => row.count()).toBe(0);
    await poll(() => live.page.locator('#announce').textContent()).toBe('Rule Made elsewhere deleted');
    expect(await live.page.inputValue('#rule-name')).toBe('Half typed');
  });

  it('rule page: the rule deleted elsewhere is said on the open page at once, what is typed kept and Save turned off', async () => {
    const site = live.server.defaultSite!.site_id;
    const rule = await api<{ rule_id: string }>('POST', `/sites/${site}/rules`, { name: 'Open elsewhere', filter: 'risks contains tor', action: 'block' });
    await live.page.goto(`${live.server.origin}/_vtr/console/rules/${site}/${rule.rule_id}`);
    await live.page.locator('#live.on').waitFor();
    await live.page.fill('#rule-filter', 'risks contains vpn');
    expect(await live.page.locator('#rule-gone').isVisible()).toBe(false);
    await api('DELETE', `/sites/${site}/rules/${rule.rule_id}`);
    const said = `The rule Open elsewhere (${rule.rule_id}) was deleted elsewhere: saving or deleting it here is no longer possible.`;
    await poll(() => live.page.locator('#rule-gone').isVisible()).toBe(true);
    expect(await live.page.locator('#rule-gone').innerText()).toContain(said);
    await poll(() => live.page.locator('#announce').textContent()).toBe(said);
    expect(await live.page.getByRole('button', { name: 'Save rule' }).isDisabled()).toBe(true);
    expect(await live.page.getByRole('button', { name: 'Delete rule' }).isDisabled()).toBe(true);
    expect(await live.page.inputValue('#rule-filter')).toBe('risks contains vpn');
  });

  it('rule page: a change elsewhere shows in the untouched form at once; over what is typed, a notice with a link to the new values', async () => {
    const site = live.server.defaultSite!.site_id;
    const rule = await api<{ rule_id: string }>('POST', `/sites/${site}/rules`, { name: 'Followed', filter: 'risks contains tor', action: 'block' });
    await live.page.goto(`${live.server.origin}/_vtr/console/rules/${site}/${rule.rule_id}`);
    await live.page.locator('#live.on').waitFor();
    await api('PATCH', `/sites/${site}/rules/${rule.rule_id}`, { action: 'review', enabled: false });
    await poll(() => live.page.inputValue('#rule-action')).toBe('review');
    expect(await live.page.isChecked('#rule-enabled')).toBe(false);
    await poll(() => live.page.locator('#announce').textContent()).toBe(`The rule Followed (${rule.rule_id}) was changed elsewhere: the form shows the new values.`);
    await live.page.fill('#rule-name', 'Typed here');
    await api('PATCH', `/sites/${site}/rules/${rule.rule_id}`, { action: 'allow' });
    await poll(() => live.page.locator('#rule-changed').isVisible()).toBe(true);
    expect(await live.page.inputValue('#rule-name')).toBe('Typed here');
    expect(await live.page.inputValue('#rule-action')).toBe('review');
    await live.page.getByRole('link', { name: 'Load the new values' }).click();
    await poll(() => live.page.inputValue('#rule-action')).toBe('allow');
    expect(await live.page.inputValue('#rule-name')).toBe('Followed');
  });

  it('rules page: a site created or renamed elsewhere shows in its site links at once; a rename of the open site shows in its rules and the tab\'s title', async () => {
    const site = live.server.defaultSite!.site_id;
    await live.page.goto(`${live.server.origin}/_vtr/console/rules?site=${site}`);
    await live.page.locator('#live.on').waitFor();
    const made = await api<{ site_id: string }>('POST', '/sites', { name: 'Made elsewhere' });
    const link = live.page.getByRole('link', { name: `Made elsewhere (${made.site_id})` });
    await poll(() => link.count()).toBe(1);
    await api('PATCH', `/sites/${made.site_id}`, { name: 'Renamed elsewhere' });
    await poll(() => live.page.getByRole('link', { name: `Renamed elsewhere (${made.site_id})` }).count()).toBe(1);
    await api('PATCH', `/sites/${site}`, { name: 'Open site renamed' });
    await poll(() => live.page.getByRole('region', { name: 'Rules of Open site renamed' }).count()).toBe(1);
    await poll(() => live.page.getByRole('heading', { level: 1 }).innerText()).toBe('Rules of Open site renamed');
    // The tab (and the history entry) is named for the site as it is now.
    await poll(() => live.page.title()).toBe('Rules of Open site renamed · vtr console');
    await poll(() => live.page.getByRole('link', { name: `Open site renamed (${site})` }).getAttribute('aria-current')).toBe('page');
  });
});
