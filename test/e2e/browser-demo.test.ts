// The whole flow in a real browser: headless Chromium opens the demo page of a spawned `vtr serve`,
// the agent records the page view and fills the form's probe_id, a custom event goes through
// window.vtr.event, the form's submit runs a server-side check, and the management API shows the
// check tied to the browser's session. Also a page on another origin using the agent over CORS.
// Runs whenever Chromium exists, and always under CI (missing Chromium then fails, not skips).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type ServerProcess } from '../helpers/vtr-process.js';
import { BROWSER_TESTS_RUN, launchChromium } from '../helpers/browser.js';
import { adminApi } from '../helpers/admin.js';

const WAIT = 30_000;

describe.skipIf(!BROWSER_TESTS_RUN)('demo in a real browser', { timeout: 180_000 }, () => {
  let server: ServerProcess;
  let browser: Browser;
  const pageErrors: string[] = [];

  const admin = <T = any>(path: string): Promise<T> => adminApi<T>(server.origin, 'GET', path);
  const newPage = async (): Promise<Page> => {
    // A fixed locale and zone, so the page view's language/timezone are known.
    const page = await browser.newPage({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('console', (m) => m.type() === 'warning' && m.text().startsWith('vtr:') && pageErrors.push(m.text()));
    return page;
  };

  beforeAll(async () => {
    server = await startServer(['--memory']);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('demo: page view, probe in the form, custom event, signup check tied to the session', async () => {
    const page = await newPage();
    await page.goto(`${server.origin}/_vtr/demo`);
    await page.waitForFunction(() => document.getElementById('probe-id')?.textContent?.startsWith('prb_'), null, { timeout: WAIT });
    const probe = (await page.textContent('#probe-id'))!;
    const sessionId = (await page.textContent('#session-id'))!;
    expect(await page.inputValue('#signup input[name="probe_id"]')).toBe(probe);
    const fingerprint = await page.evaluate(() => localStorage.getItem('vtr_fp'));
    expect(fingerprint).toMatch(/^fp_/);
    const userAgent = await page.evaluate(() => navigator.userAgent);

    await page.getByRole('button', { name: 'Send a "conversion" event' }).press('Enter');
    // The answer is announced (a status region), not only drawn.
    await page.getByRole('status').filter({ hasText: 'conversion recorded' }).waitFor({ timeout: WAIT });

    await page.fill('input[name="email"]', 'someone@mailinator.com');
    await page.fill('input[name="name"]', 'Some One');
    await page.fill('input[name="phone"]', '(212) 664-7665');
    await Promise.all([page.waitForURL('**/_vtr/demo/signup', { timeout: WAIT }), page.click('#signup button[type="submit"]')]);
    await page.waitForSelector('[data-testid="risk-level"]', { timeout: WAIT });
    const checkId = (await page.textContent('[data-testid="check-id"]'))!.trim();
    expect((await page.textContent('[data-testid="session-id"]'))!.trim()).toBe(sessionId);

    const check = await admin(`/checks/${checkId}`);
    expect(check).toMatchObject({
      session_id: sessionId,
      device: { valid: true, probe_id: probe, probe_ip_match: true, fingerprint, user_agent: userAgent },
      email: { disposable: true },
      phone: { phone: '+12126647665' },
    });
    expect(check.risks).toContain('disposable_email');
    // Headless Chromium names itself in its user agent: a bot by the reserved values.
    expect(userAgent).toContain('HeadlessChrome');
    expect(check).toMatchObject({ risk_level: 'invalid', device: { bot: true, headless_browser: true } });
    expect((await page.textContent('[data-testid="risk-level"]'))!.trim()).toBe(check.risk_level);

    const session = await admin(`/sessions/${sessionId}`);
    expect(session).toMatchObject({ fingerprint, user_agent: userAgent, entry_path: '/_vtr/demo', ip: '127.0.0.1', engagement_level: 'converted' });
    expect(session.custom_events).toContain('conversion');
    expect(session.risks).toContain('disposable_email');
    expect(session).toMatchObject({ language: 'de-DE', timezone: 'Europe/Berlin' });
    const checks = await admin<any[]>(`/checks?session=${sessionId}`);
    expect(checks.map((c) => c.id)).toContain(checkId);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  /** A plain site on another origin whose page embeds the agent from the emulator. */
  async function otherSite(key?: string, headers: Record<string, string> = {}): Promise<{ origin: string; close: () => Promise<unknown> }> {
    const siteKey = key ?? (await admin('/sites/default')).site_key;
    const html = `<!doctype html><html><head><title>other</title></head><body>
      <form id="f" action="/submitted" method="get"><input name="q" value="1"><button data-vtr-site-key="${siteKey}">go</button></form>
      <script src="${server.origin}/agent.js" data-site-key="${siteKey}"></script></body></html>`;
    const other: Server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', ...headers });
      res.end(req.url?.startsWith('/submitted') ? `<p id="done">${req.url}</p>` : html);
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    return { origin: `http://127.0.0.1:${(other.address() as AddressInfo).port}`, close: () => new Promise((r) => other.close(r)) };
  }

  it('agent: a page on another localhost origin records page views over CORS and keeps its visitor', async () => {
    const { origin, close } = await otherSite();
    try {
      const page = await newPage();
      await page.goto(`${origin}/landing?utm_source=newsletter`);
      await page.waitForFunction(() => !!(window as any).vtr?.sessionId(), null, { timeout: WAIT });
      const first = await page.evaluate(() => ({ probe: (window as any).vtr.probeId(), session: (window as any).vtr.sessionId() }));
      // Submitting carries the probe in the form's hidden field.
      await Promise.all([page.waitForURL('**/submitted**', { timeout: WAIT }), page.click('#f button')]);
      expect(decodeURIComponent(new URL(page.url()).search)).toContain(`probe_id=${first.probe}`);
      // The submitted page has no agent; going back records a second page view in the same session.
      await page.goto(`${origin}/landing`);
      await page.waitForFunction((p) => (window as any).vtr?.probeId() && (window as any).vtr.probeId() !== p, first.probe, { timeout: WAIT });
      expect(await page.evaluate(() => (window as any).vtr.sessionId())).toBe(first.session);
      const session = await admin(`/sessions/${first.session}`);
      expect(session).toMatchObject({ page_views: 2, channel: 'other', source: 'newsletter', entry_path: '/landing' });
      // vtr.event: a value that is not a finite number is refused, not silently dropped.
      expect(await page.evaluate(() => (window as any).vtr.event('added_to_cart', { value: NaN }))).toEqual({ success: false, message: 'value must be a finite number, e.g. { value: 49 }' });
      expect(pageErrors.splice(0)).toEqual([expect.stringContaining('event not recorded: value must be a finite number')]);
      expect(await page.evaluate(() => (window as any).vtr.event('added_to_cart', { value: 12.5 }))).toMatchObject({ success: true });
      expect((await admin(`/sessions/${first.session}`)).custom_events).toEqual(['added_to_cart']);
      expect(Object.keys(await page.evaluate(() => ({ ...(window as any).vtr })))).toEqual(
        expect.arrayContaining(['version', 'event', 'pageview', 'probe', 'probeId', 'sessionId']),
      );
      expect(pageErrors).toEqual([]);
      await page.close();
    } finally {
      await close();
    }
  });

  it('agent: a page view asked for before the first one answered stays in the same session, in order', async () => {
    const { origin, close } = await otherSite();
    try {
      const page = await newPage();
      // A new visitor whose single-page app navigates before the first page view has answered.
      let first = true;
      await page.route('**/_vtr/agent/pageview', async (route) => {
        if (first) { first = false; await new Promise((r) => setTimeout(r, 800)); }
        await route.continue();
      });
      await page.goto(`${origin}/start`, { waitUntil: 'domcontentloaded' });
      const answer = await page.evaluate(() => { history.pushState({}, '', '/next'); return (window as any).vtr.pageview(); });
      expect(answer).toMatchObject({ session_id: expect.stringMatching(/^ses_/) });
      const session = await admin(`/sessions/${answer.session_id}`);
      expect(session).toMatchObject({ page_views: 2, entry_path: '/start', exit_path: '/next', fingerprint: await page.evaluate(() => localStorage.getItem('vtr_fp')) });
      expect(pageErrors).toEqual([]);
      await page.close();
    } finally {
      await close();
    }
  });

  it('agent: a page view whose answer never comes does not hold the next one for good', async () => {
    const { origin, close } = await otherSite();
    try {
      const page = await newPage();
      await page.goto(`${origin}/first`);
      await page.waitForFunction(() => !!(window as any).vtr?.sessionId(), null, { timeout: WAIT });
      // The emulator stops answering one page view (paused in a debugger), then answers again.
      let hung = false;
      await page.route('**/_vtr/agent/pageview', (route) => { if (hung) return route.continue(); hung = true; return new Promise(() => {}); });
      await page.evaluate(() => { history.pushState({}, '', '/hung'); (window as any).vtr.pageview(); });
      const next = await page.evaluate(() => { history.pushState({}, '', '/after'); return (window as any).vtr.pageview(); });
      expect(next).toMatchObject({ session_id: expect.stringMatching(/^ses_/) });
      expect((await admin(`/sessions/${next.session_id}`)).exit_path).toBe('/after');
      await page.close();
    } finally {
      await close();
    }
  });

  it('agent: after a page view that did not reach the emulator, events still go to the session', async () => {
    const { origin, close } = await otherSite();
    try {
      const page = await newPage();
      await page.goto(`${origin}/steady`);
      await page.waitForFunction(() => !!(window as any).vtr?.sessionId(), null, { timeout: WAIT });
      const sessionId = await page.evaluate(() => (window as any).vtr.sessionId());
      // The emulator is away (restarting) for one navigation, then back.
      await page.route('**/_vtr/agent/pageview', (route) => route.abort('connectionrefused'));
      expect(await page.evaluate(() => { history.pushState({}, '', '/away'); return (window as any).vtr.pageview(); })).toBeNull();
      expect(pageErrors.splice(0)).toEqual([expect.stringContaining('page view not recorded')]);
      await page.unroute('**/_vtr/agent/pageview');
      expect(await page.evaluate(() => (window as any).vtr.event('added_to_cart'))).toEqual({ success: true });
      expect((await admin(`/sessions/${sessionId}`)).custom_events).toEqual(['added_to_cart']);
      expect(pageErrors).toEqual([]);
      await page.close();
    } finally {
      await close();
    }
  });

  it('agent: a cross-origin-isolated page (COEP require-corp) loads the agent from the plain tag', async () => {
    const { origin, close } = await otherSite(undefined, { 'cross-origin-embedder-policy': 'require-corp', 'cross-origin-opener-policy': 'same-origin' });
    try {
      const page = await newPage();
      await page.goto(`${origin}/isolated`);
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      await page.waitForFunction(() => !!(window as any).vtr?.sessionId(), null, { timeout: WAIT });
      expect(pageErrors).toEqual([]);
      await page.close();
    } finally {
      await close();
    }
  });

  it('agent: a submit before the probe arrived is held, then sent with the probe', async () => {
    const { origin, close } = await otherSite();
    try {
      const page = await newPage();
      // Slow page-view answers: the visitor submits first.
      await page.route('**/_vtr/agent/pageview', async (route) => {
        await new Promise((r) => setTimeout(r, 1500));
        await route.continue();
      });
      await page.goto(`${origin}/slow`, { waitUntil: 'domcontentloaded' });
      expect(await page.evaluate(() => (window as any).vtr.probeId())).toBeNull();
      await Promise.all([page.waitForURL('**/submitted**', { timeout: WAIT }), page.click('#f button')]);
      const submitted = new URL(page.url()).searchParams;
      expect(submitted.get('probe_id')).toMatch(/^prb_[0-9A-Za-z]{32}$/);
      expect(submitted.get('q')).toBe('1');
      expect(pageErrors).toEqual([]);
      await page.close();
    } finally {
      await close();
    }
  });

  it('agent: a form still submits when the page view was refused (unknown site key)', async () => {
    const { origin, close } = await otherSite('pk_test_rotatedAwayLongAgo0000');
    try {
      const page = await newPage();
      await page.goto(`${origin}/stale-key`);
      expect(await page.evaluate(() => (window as any).vtr.probe())).toBeNull();
      await Promise.all([page.waitForURL('**/submitted**', { timeout: 10_000 }), page.click('#f button')]);
      expect(new URL(page.url()).searchParams.get('q')).toBe('1');
      expect(pageErrors.splice(0)).toEqual([expect.stringContaining('page view not recorded: the site key is unknown')]);
      await page.close();
    } finally {
      await close();
    }
  });

  it('agent: vtr.event with a name that is not a string (an unset variable) is refused, not recorded as "undefined"', async () => {
    const page = await newPage();
    await page.goto(`${server.origin}/_vtr/demo`);
    await page.waitForFunction(() => !!(window as any).vtr?.sessionId(), null, { timeout: WAIT });
    const sessionId = await page.evaluate(() => (window as any).vtr.sessionId());
    const refused = { success: false, message: "name must be a string, e.g. vtr.event('signup')" };
    expect(await page.evaluate(() => (window as any).vtr.event(undefined))).toEqual(refused);
    expect(await page.evaluate(() => (window as any).vtr.event(null, { value: 5 }))).toEqual(refused);
    expect(await page.evaluate(() => (window as any).vtr.event({ name: 'signup' }))).toEqual(refused);
    expect(pageErrors.splice(0)).toEqual(Array(3).fill(expect.stringContaining('event not recorded: name must be a string')));
    expect(await page.evaluate(() => (window as any).vtr.event('signup'))).toEqual({ success: true });
    expect(await admin(`/sessions/${sessionId}`)).toMatchObject({ custom_events: ['signup'] });
    await page.close();
  });
  it('demo: the sign-up page and its check result fit a phone screen (390 px) without sideways scrolling', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    await page.goto(`${server.origin}/_vtr/demo`);
    await page.waitForFunction(() => document.getElementById('probe-id')?.textContent?.startsWith('prb_'), null, { timeout: WAIT });
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await width()).toBeLessThanOrEqual(390);
    await page.fill('input[name="email"]', 'someone@mailinator.com');
    await Promise.all([page.waitForURL('**/_vtr/demo/signup', { timeout: WAIT }), page.click('#signup button[type="submit"]')]);
    await page.waitForSelector('[data-testid="risk-level"]', { timeout: WAIT });
    expect(await width()).toBeLessThanOrEqual(390);
    // The result's sections stack under the verdict, each as wide as the screen allows.
    const box = await page.locator('aside').boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    await page.close();
  });
  it('demo: the check result\'s headings go down one level at a time, its sections under a named heading of their own', async () => {
    const page = await newPage();
    await page.goto(`${server.origin}/_vtr/demo`);
    await page.waitForFunction(() => document.getElementById('probe-id')?.textContent?.startsWith('prb_'), null, { timeout: WAIT });
    await page.fill('input[name="email"]', 'someone@mailinator.com');
    await Promise.all([page.waitForURL('**/_vtr/demo/signup', { timeout: WAIT }), page.click('#signup button[type="submit"]')]);
    const levels = await page.locator('h1, h2, h3, h4, h5, h6').evaluateAll((hs) => hs.map((h) => Number(h.tagName[1])));
    expect(levels[0]).toBe(1);
    expect(levels.every((l, i) => i === 0 || l <= levels[i - 1] + 1), `heading levels ${levels.join(', ')}`).toBe(true);
    await page.getByRole('complementary', { name: 'What the check found' }).getByRole('heading', { level: 3, name: 'email' }).waitFor({ timeout: WAIT });
    await page.close();
  });
});
