// Many console tabs in one browser (headless Chromium through playwright-core) against `vtr serve`:
// a browser opens at most 6 HTTP/1.1 connections to one host, so the tabs share one event stream
// rather than each holding a connection open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServer, type ServerProcess } from '../helpers/vtr-process.js';
import { BROWSER_TESTS_RUN, launchChromium } from '../helpers/browser.js';
import { newSessionAt, wireWebhook } from '../helpers/admin.js';

const suite = BROWSER_TESTS_RUN ? describe : describe.skip;

suite('console tabs (browser)', () => {
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    server = await startServer(['--memory']);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('tabs: eight console tabs (webhook pages among them) all load and go live, and an event reaches pages in two tabs', async () => {
    const hook = await wireWebhook(server.origin, 'http://127.0.0.1:9/hook', { view: false });
    const c = '/_vtr/console';
    const paths = [`${c}/sessions`, `${c}/webhooks/${hook.webhook_id}`, `${c}/logs`, `${c}/webhooks/${hook.webhook_id}`, `${c}/sites`, `${c}/webhooks`, `${c}/rules`, `${c}/sessions`];
    const tabs: Page[] = [];
    for (const path of paths) {
      const tab = await context.newPage();
      tab.setDefaultTimeout(10_000);
      tabs.push(tab);
      await tab.goto(server.origin + path);
      await tab.locator('#live.on').waitFor();
    }
    // Every tab is still live; the new rows below are fetched by the tabs (nothing waits for a free connection).
    for (const tab of tabs) await tab.locator('#live.on').waitFor();
    const made = await newSessionAt(server.origin);
    await tabs[0].locator(`[id="row-${made.session_id}"]`).waitFor();
    await tabs[7].locator(`[id="row-${made.session_id}"]`).waitFor();
    // The request log's tab, opened after tabs that did not ask for its events, gets them too.
    await fetch(`${server.baseUrl}/session/ses_seen_in_a_tab`, { headers: { authorization: `Bearer ${server.site!.access_token}` } });
    await tabs[2].locator('tbody#rows tr', { hasText: '/api/v1/session/ses_seen_in_a_tab' }).waitFor();
  }, 120_000);
});

suite('console tabs with --admin-token (browser)', () => {
  it('tabs: the shared stream is let in by the token cookie; refused after a restart with another token, every tab says to reload, and one that does brings all back', async () => {
    let server = await startServer(['--memory', '--admin-token', 'first-token']);
    const port = new URL(server.origin).port;
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      context.setDefaultTimeout(20_000);
      const a = await context.newPage();
      await a.goto(`${server.origin}/?admin_token=first-token`);
      await a.locator('#live.on').waitFor();
      const b = await context.newPage();
      await b.goto(`${server.origin}/_vtr/console/webhooks`);
      await b.locator('#live.on').waitFor();

      await server.stop();
      server = await startServer(['--memory', '--admin-token', 'second-token', '--port', port]);
      for (const tab of [a, b]) await expect.poll(() => tab.locator('#live').textContent(), { timeout: 20_000, interval: 100 }).toBe('not live: reload the page');

      await a.reload();
      await a.getByLabel('Admin token').fill('second-token');
      await a.getByRole('button', { name: 'Open the console' }).click();
      await a.locator('#live.on').waitFor();
      await b.locator('#live.on').waitFor();
    } finally {
      await browser.close();
      await server.stop();
    }
  }, 120_000);
});
