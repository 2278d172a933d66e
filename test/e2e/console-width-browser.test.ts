// The console at 1280 px in headless Chromium: no page-wide horizontal overflow (wide tables scroll
// inside their box), empty values as a dash with the raw value in a tooltip, times naming their zone
// and marked emulated under a frozen clock, and the webhook page's "Send test event".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { runCli, startServer, type ServerProcess } from '../helpers/vtr-process.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { BROWSER_TESTS_RUN, launchChromium } from '../helpers/browser.js';

const suite = BROWSER_TESTS_RUN ? describe : describe.skip;

suite('console at 1280 px', () => {
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  let receiver: Receiver;

  const cli = async (...args: string[]) => {
    const r = await runCli([...args, '--json'], { env: server.env });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };

  beforeAll(async () => {
    server = await startServer(['--memory', '--clock', 'frozen']);
    receiver = await startReceiver();
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    // Long values in every column a session row has.
    for (const ip of ['203.0.113.5', '2001:db8::1234:5678:9abc', '192.0.2.10']) {
      await cli('sessions', 'create', '--ip', ip, '--user-agent', 'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/131.0.0.0 Safari/537.36',
        '--referrer', 'https://a-rather-long-referrer-name.example.com/some/deep/path', '--url', 'https://example.com/landing?utm_source=newsletter&utm_medium=email&utm_campaign=black-friday-2026');
    }
    await cli('sessions', 'create', '--ip', '127.0.0.1'); // loopback: no country, no risks
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.stop();
  });

  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth);

  it('console: no page at 1280 px is wider than the window', async () => {
    for (const path of ['sessions', 'checks', 'webhooks', 'views', 'logs', 'sites']) {
      await page.goto(`${server.origin}/_vtr/console/${path}`);
      expect(await overflow(), path).toBeLessThanOrEqual(1280);
    }
    // The sessions and checks tables fit their box too: no column is cut off behind a scroll bar,
    // for a check with a session, every section checked and several risks.
    const pv = await fetch(`${server.origin}/_vtr/agent/pageview`, { method: 'POST', body: JSON.stringify({ site_key: server.site!.site_key, url: 'https://shop.test/' }) });
    const { probe_id } = (await pv.json()) as { probe_id: string };
    await cli('check', '--probe-id', probe_id, '--ip', '203.0.113.9', '--email', 'someone@mailinator.com', '--phone', '+1 212 555 0100', '--name', 'Jane Doe',
      '--address1', '30 Rockefeller Plaza', '--city', 'New York', '--country', 'US', '--postal-code', '10112');
    for (const path of ['sessions', 'checks']) {
      await page.goto(`${server.origin}/_vtr/console/${path}`);
      const box = await page.evaluate(() => { const e = document.querySelector('.scroll')!; return { scrollWidth: e.scrollWidth, clientWidth: e.clientWidth }; });
      expect(box.scrollWidth, path).toBeLessThanOrEqual(box.clientWidth);
    }
  });

  it('console: a site named with one long unbroken word wraps instead of widening the page, at 1280 and 390 px', async () => {
    const site = await cli('sites', 'create', '--name', `Shop-${'x'.repeat(180)}`, '--plan', 'paid');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of ['sites', 'tokens', 'views', 'rules', 'webhooks', `rules?site=${site.site_id}`]) {
        await page.goto(`${server.origin}/_vtr/console/${path}`);
        expect(await overflow(), `${path} at ${width} px`).toBeLessThanOrEqual(width);
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('console: rules with 200-character names fit the rules and checks tables at 1280 px, their Edit buttons in view', async () => {
    const words = 'Block sign-ups from datacenter traffic outside the shop country '.repeat(4).slice(0, 200);
    const long = await cli('rules', 'create', '--name', words, '--filter', 'ip = 192.0.2.77', '--action', 'review');
    const unbroken = await cli('rules', 'create', '--name', 'x'.repeat(200), '--filter', 'ip = 192.0.2.77', '--action', 'review');
    await cli('check', '--ip', '192.0.2.77');
    const fits = () => page.evaluate(() => { const e = document.querySelector('.scroll')!; return e.scrollWidth - e.clientWidth; });
    await page.goto(`${server.origin}/_vtr/console/rules`);
    expect(await fits(), 'rules').toBeLessThanOrEqual(0);
    expect(await page.getByRole('link', { name: `Edit ${words}` }).isVisible()).toBe(true);
    await page.goto(`${server.origin}/_vtr/console/checks`);
    expect(await fits(), 'checks').toBeLessThanOrEqual(0);
    for (const r of [long, unbroken]) await cli('rules', 'delete', r.rule_id, '--yes');
  });

  it('console: empty values are a dash with the raw value as a tooltip; times name UTC and are marked emulated', async () => {
    await page.goto(`${server.origin}/_vtr/console/sessions`);
    const dash = page.locator('#rows span.null').first();
    expect((await dash.textContent())?.trim()).toBe('—');
    expect(await dash.getAttribute('title')).toMatch(/^(null|\[\])$/);
    const time = page.locator('#rows time').first();
    expect(await time.innerText()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\s+\(emulated\)$/);
  });

  it('console: "Send test event" on a webhook page sends a saved_view event through the outbox', async () => {
    const hook = await cli('webhooks', 'create', '--url', receiver.url);
    await page.goto(`${server.origin}/_vtr/console/webhooks/${hook.webhook_id}`);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await receiver.waitFor((ds) => ds.length >= 1);
    expect(receiver.deliveries[0].json).toMatchObject({ hook_type: 'saved_view', webhook_id: hook.webhook_id });
    await expect.poll(() => page.locator('[role=status]').first().textContent()).toMatch(/Sent test event msg_/);
  });
});
