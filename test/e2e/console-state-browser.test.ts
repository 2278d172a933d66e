// Console pages in a real browser (headless Chromium through playwright-core) against
// `vtr serve`: a state reset or import elsewhere (the CLI, the API) replaces what an open list
// shows, and an open session's page says its session is gone, rather than leaving links to nothing.
import { describe, expect, it } from 'vitest';
import { BROWSER_TESTS_RUN } from '../helpers/browser.js';
import { consoleInBrowser } from '../helpers/console-browser.js';

const suite = BROWSER_TESTS_RUN ? describe : describe.skip;

suite('console lists after a state reset or import (browser)', () => {
  const live = consoleInBrowser();
  const { api, poll } = live;

  it('sessions page: a state reset elsewhere empties the open list', async () => {
    const site = live.server.defaultSite!.site_id;
    const made = await api<{ session_id: string }>('POST', `/sites/${site}/sessions`, {});
    await live.page.goto(`${live.server.origin}/_vtr/console/sessions`);
    await live.page.locator('#live.on').waitFor();
    await poll(() => live.page.locator(`#row-${made.session_id}`).count()).toBe(1);
    await api('POST', '/state/reset');
    await poll(() => live.page.locator('#rows tr').count()).toBe(0);
    await poll(() => live.page.locator('#rows-empty').count()).toBe(1);
  }, 60_000);

  it('checks page: a state reset elsewhere empties the open list', async () => {
    const site = live.server.defaultSite!.site_id;
    await api('POST', `/sites/${site}/sessions`, {});
    const { sk } = await api<{ secret_key: string }>('GET', '/sites/default').then((s) => ({ sk: s.secret_key }));
    const res = await fetch(`${live.server.origin}/api/v1/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: sk, email: 'a@example.com' }) });
    const check = (await res.json()) as { id: string };
    await live.page.goto(`${live.server.origin}/_vtr/console/checks`);
    await live.page.locator('#live.on').waitFor();
    await poll(() => live.page.locator(`#check-${check.id}`).count()).toBe(1);
    await api('POST', '/state/reset');
    await poll(() => live.page.locator('#rows tr').count()).toBe(0);
    await poll(() => live.page.locator('#rows-empty').count()).toBe(1);
  }, 60_000);

  it('request log page: a state reset elsewhere empties the open log; an import leaves it as it was', async () => {
    await api('POST', '/state/reset');
    const hit = async (path: string) => (await fetch(`${live.server.origin}/api/v1/${path}`)).status;
    await hit('session/ses_before_import');
    await live.page.goto(`${live.server.origin}/_vtr/console/logs`);
    await live.page.locator('#live.on').waitFor();
    await poll(() => live.page.locator('#rows tr').count()).toBe(1);
    // An import leaves the log alone: the row stays, and the page says the state (not the log) changed.
    await api('PUT', '/state', await api('GET', '/state'));
    await poll(() => live.page.locator('#announce').textContent()).toContain('request log is as it was');
    expect(await live.page.locator('#rows tr').count()).toBe(1);
    // A reset clears the log with the rest: the open page is empty, and says why.
    await api('POST', '/state/reset');
    await poll(() => live.page.locator('#rows tr').count()).toBe(0);
    await poll(() => live.page.locator('#rows-empty').count()).toBe(1);
    await poll(() => live.page.locator('#announce').textContent()).toContain('request log');
    // Live rows still come after the swap.
    await hit('session/ses_after_reset');
    await poll(() => live.page.locator('#rows tr').count()).toBe(1);
  }, 60_000);

  it('mail outbox: a state import elsewhere shows the mail it brought, a reset takes it away', async () => {
    await api('POST', '/state/reset');
    const doc = await api<{ tables: { sites: { site_id: string }[]; notifications: unknown[] } }>('GET', '/state');
    doc.tables.notifications.push({
      notification_id: 'ntf_Imported0000000000', kind: 'webhook_disabled', site_id: doc.tables.sites[0].site_id, webhook_id: null, webhook_event_id: null,
      to: 'owner@example.com', subject: '[vtr] Imported mail', body: 'From the file.', created_at: '2026-01-01T00:00:00.000000', sent_at: null, send_error: null, seq: 1, send_pending: 0,
    });
    await live.page.goto(`${live.server.origin}/_vtr/console/outbox`);
    await live.page.locator('#live.on').waitFor();
    const mail = () => live.page.locator('#outbox').innerText();
    await api('PUT', '/state', doc);
    await poll(mail).toContain('[vtr] Imported mail');
    await api('POST', '/state/reset');
    await poll(mail).not.toContain('[vtr] Imported mail');
  }, 60_000);

  it('session page: a state reset elsewhere says the open session is gone', async () => {
    const site = live.server.defaultSite!.site_id;
    const made = await api<{ session_id: string }>('POST', `/sites/${site}/sessions`, {});
    await live.page.goto(`${live.server.origin}/_vtr/console/sessions/${made.session_id}`);
    await live.page.locator('#live.on').waitFor();
    const gone = live.page.locator('#session-gone');
    expect(await gone.isVisible()).toBe(false);
    await api('POST', '/state/reset');
    await poll(() => gone.isVisible()).toBe(true);
    expect(await gone.innerText()).toContain(`The session ${made.session_id} is no longer here`);
    await poll(() => live.page.locator('#announce').textContent()).toContain('is no longer here');
  }, 60_000);
});
