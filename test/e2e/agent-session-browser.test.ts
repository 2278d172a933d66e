// The agent's idea of "the current session" in a real browser, against a spawned `vtr serve` with a
// frozen clock: a page left open past the 30 minutes that end a session sends its custom events to
// the visitor's current session (started as a page view would), never to the one that ended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, type ServerProcess } from '../helpers/vtr-process.js';
import { BROWSER_TESTS_RUN, launchChromium } from '../helpers/browser.js';
import { adminApi } from '../helpers/admin.js';

const WAIT = 30_000;

describe.skipIf(!BROWSER_TESTS_RUN)('agent sessions in a real browser', { timeout: 180_000 }, () => {
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer(['--memory', '--clock', 'frozen']);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('vtr.event: after 30 minutes without a page view, the event starts a new session and the form gets its probe', async () => {
    const page = await browser.newPage();
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await page.goto(`${server.origin}/_vtr/demo`);
    await page.waitForFunction(() => !!(window as any).vtr?.sessionId(), null, { timeout: WAIT });
    const first = await page.evaluate(() => ({ probe: (window as any).vtr.probeId(), session: (window as any).vtr.sessionId() }));

    await adminApi(server.origin, 'POST', '/clock/advance', { duration: '31m' });
    expect(await page.evaluate(() => (window as any).vtr.event('late_click'))).toMatchObject({ success: true });

    const now = await page.evaluate(() => ({ probe: (window as any).vtr.probeId(), session: (window as any).vtr.sessionId() }));
    expect(now.session).not.toBe(first.session);
    expect(now.probe).not.toBe(first.probe);
    expect((await adminApi(server.origin, 'GET', `/sessions/${first.session}`)).custom_events).toEqual([]);
    const fresh = await adminApi(server.origin, 'GET', `/sessions/${now.session}`);
    expect(fresh).toMatchObject({ custom_events: ['late_click'], page_views: 1, entry_path: '/_vtr/demo', returned: true });
    // The form now carries the probe of the session the visitor is in.
    expect(await page.inputValue('#signup input[name="probe_id"]')).toBe(now.probe);

    // Within the 30 minutes, events stay in that session.
    await adminApi(server.origin, 'POST', '/clock/advance', { duration: '5m' });
    expect(await page.evaluate(() => (window as any).vtr.event('second'))).toMatchObject({ success: true });
    expect(await page.evaluate(() => (window as any).vtr.sessionId())).toBe(now.session);
    expect((await adminApi(server.origin, 'GET', `/sessions/${now.session}`)).custom_events).toEqual(['late_click', 'second']);
    expect(warnings).toEqual([]);
    await page.close();
  });

  it('vtr.event: events sent together after the session ended share one new session and one page view', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/_vtr/demo`);
    await page.waitForFunction(() => !!(window as any).vtr?.sessionId(), null, { timeout: WAIT });
    const first = await page.evaluate(() => (window as any).vtr.sessionId());
    await adminApi(server.origin, 'POST', '/clock/advance', { duration: '45m' });
    const answers = await page.evaluate(() => Promise.all(['a', 'b', 'c'].map((n) => (window as any).vtr.event(n))));
    expect(answers).toEqual([{ success: true }, { success: true }, { success: true }]);
    const now = await page.evaluate(() => (window as any).vtr.sessionId());
    expect(now).not.toBe(first);
    const fresh = await adminApi(server.origin, 'GET', `/sessions/${now}`);
    expect(fresh.page_views).toBe(1);
    expect([...fresh.custom_events].sort()).toEqual(['a', 'b', 'c']);
    await page.close();
  });
});
