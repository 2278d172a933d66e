// The console's saved-view and webhook pages, in process (app.request): forms with their errors and
// same-origin rule, the event page's Retry button through a whole failed → retried → delivered life,
// the session page's webhook events, escaping. The browser test drives the same pages for real.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

const HOUR = 3_600_000;
let rx: Receiver;
const open: Harness[] = [];
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
// A manual clock and hour-long retries: nothing runs until the test moves the clock.
function fresh(): Harness {
  const h = harness({ clock: 'manual', retrySchedule: [HOUR, HOUR, HOUR, HOUR, HOUR] });
  open.push(h);
  return h;
}

const page = async (h: Harness, path: string) => {
  const res = await h.request(path, { headers: { accept: 'text/html' } });
  return { status: res.status, text: await res.text() };
};
const post = async (h: Harness, path: string, body: Record<string, string> = {}, headers: Record<string, string> = {}) => {
  const res = await h.request(path, { method: 'POST', body: new URLSearchParams(body), headers: { origin: 'http://localhost', host: 'localhost', ...headers }, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location') ?? '', text: await res.text() };
};
const advance = (h: Harness, duration: string | number) => h.admin('POST', '/clock/advance', { duration });
const C = '/_vtr/console';

describe('console: saved views', () => {
  it('creates, lists, edits and deletes a view through same-origin forms', async () => {
    const h = fresh();
    const site = h.site.site_id;
    expect((await post(h, `${C}/views`, { site_id: site, name: 'x', filter: 'risk_level = invalid' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await h.admin('GET', '/views')).body).toEqual([]);

    const made = await post(h, `${C}/views`, { site_id: site, name: 'Bad traffic', filter: 'risk_level in (suspicious, invalid)', trigger_webhooks: 'on' });
    expect(made.status).toBe(303);
    expect(made.location).toMatch(/^\/_vtr\/console\/views\?done=created#view-view_/);
    const [view] = (await h.admin('GET', '/views')).body;
    expect(view).toMatchObject({ site_id: site, name: 'Bad traffic', filter: 'risk_level in (suspicious, invalid)', trigger_webhooks: true });
    const list = await page(h, `${C}/views?done=created`);
    expect(list.text).toContain('Created the saved view.');
    expect(list.text).toContain(`id="view-${view.saved_view_id}"`);
    expect(list.text).toContain('href="/_vtr/console/views" aria-current="page">Saved views');

    const edit = await page(h, `${C}/views/${view.saved_view_id}`);
    expect(edit.status).toBe(200);
    expect(edit.text).toContain('value="risk_level in (suspicious, invalid)"');
    expect(edit.text).toMatch(/id="view-trigger" name="trigger_webhooks" checked/);
    // An unchecked box is absent from the form: trigger_webhooks becomes false.
    expect((await post(h, `${C}/views/${view.saved_view_id}`, { name: 'Renamed', filter: 'channel = paid' })).status).toBe(303);
    expect((await h.admin('GET', `/views/${view.saved_view_id}`)).body).toMatchObject({ name: 'Renamed', filter: 'channel = paid', trigger_webhooks: false });

    expect((await post(h, `${C}/views/${view.saved_view_id}/delete`)).location).toBe(`${C}/views?done=deleted`);
    expect((await h.admin('GET', `/views/${view.saved_view_id}`)).status).toBe(404);
    expect((await page(h, `${C}/views/${view.saved_view_id}`)).status).toBe(404);
  });

  it('shows a bad filter with its position (caret), keeping what was typed', async () => {
    const h = fresh();
    const bad = await post(h, `${C}/views`, { site_id: h.site.site_id, name: 'Oops <b>', filter: 'risk_level == invalid', trigger_webhooks: 'on' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('role="alert"');
    expect(bad.text).toContain('risk_level == invalid\n           ^');
    expect(bad.text).toContain('value="Oops &lt;b&gt;"');
    expect(bad.text).toMatch(/name="filter" value="risk_level == invalid"[^>]*aria-invalid="true"/);
    expect((await h.admin('GET', '/views')).body).toEqual([]);

    await post(h, `${C}/views`, { site_id: h.site.site_id, name: 'Good', filter: 'channel = paid' });
    const [view] = (await h.admin('GET', '/views')).body;
    const badEdit = await post(h, `${C}/views/${view.saved_view_id}`, { name: 'Good', filter: 'channel = (' });
    expect(badEdit.status).toBe(400);
    expect(badEdit.text).toContain('channel = (\n          ^');
    expect((await h.admin('GET', `/views/${view.saved_view_id}`)).body.filter).toBe('channel = paid');
  });
});

describe('console: webhooks', () => {
  it('creates (secret shown once with a copy button), disables, enables and deletes', async () => {
    const h = fresh();
    const site = h.site.site_id;
    const made = await post(h, `${C}/webhooks`, { site_id: site, url: 'https://example.com/hook?a=1&b="2"' });
    expect(made.status).toBe(303);
    const [hook] = (await h.admin('GET', '/webhooks')).body;
    expect(made.location).toBe(`${C}/webhooks?created=${hook.webhook_id}#hook-${hook.webhook_id}`);
    const list = await page(h, made.location.split('#')[0]);
    expect(list.text).toContain(`data-copy="${hook.secret}"`);
    expect(list.text).toContain('https://example.com/hook?a=1&amp;b=&quot;2&quot;');
    expect(list.text).toContain('hook-enabled');

    expect((await post(h, `${C}/webhooks/${hook.webhook_id}/disable`, { back: 'detail' })).location).toBe(`${C}/webhooks/${hook.webhook_id}?done=disabled`);
    expect((await h.admin('GET', `/webhooks/${hook.webhook_id}`)).body.status).toBe('disabled');
    const detail = await page(h, `${C}/webhooks/${hook.webhook_id}?done=disabled`);
    expect(detail.text).toContain('hook-disabled');
    expect(detail.text).toMatch(/<button[^>]*>Enable<\/button>/);
    expect((await post(h, `${C}/webhooks/${hook.webhook_id}/enable`)).location).toBe(`${C}/webhooks?done=enabled#hook-${hook.webhook_id}`);
    expect((await h.admin('GET', `/webhooks/${hook.webhook_id}`)).body.status).toBe('enabled');
    expect((await post(h, `${C}/webhooks/${hook.webhook_id}/delete`, {}, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await post(h, `${C}/webhooks/${hook.webhook_id}/delete`)).status).toBe(303);
    expect((await h.admin('GET', '/webhooks')).body).toEqual([]);
    expect((await page(h, `${C}/webhooks/${hook.webhook_id}`)).status).toBe(404);
  });

  it('enable/disable from a page left open after the status changed: says nothing changed, not that a new failure run starts', async () => {
    const h = fresh();
    const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: rx.url })).body;
    const again = await post(h, `${C}/webhooks/${hook.webhook_id}/enable`, { back: 'detail' });
    expect(again.location).toBe(`${C}/webhooks/${hook.webhook_id}?done=already-enabled`);
    const detail = await page(h, again.location);
    expect(detail.text).toContain('The webhook was already enabled: nothing changed.');
    expect(detail.text).not.toContain('a new failure run starts');
    await post(h, `${C}/webhooks/${hook.webhook_id}/disable`);
    const twice = await post(h, `${C}/webhooks/${hook.webhook_id}/disable`);
    expect(twice.location).toBe(`${C}/webhooks?done=already-disabled#hook-${hook.webhook_id}`);
    expect((await page(h, twice.location.split('#')[0])).text).toContain('The webhook was already disabled: nothing changed.');
  });

  it('webhook pages: a URL with credentials is shown with its password masked', async () => {
    const h = fresh();
    rx.answer(() => 200);
    const url = rx.url.replace('http://', 'http://hooks:s3cret@');
    const shown = rx.url.replace('http://', 'http://hooks:***@');
    const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url })).body;
    expect(hook.url).toBe(url);
    const sent = await post(h, `${C}/webhooks/${hook.webhook_id}/trigger`);
    const eventId = new URL(sent.location, 'http://x').searchParams.get('sent');
    for (const path of ['/webhooks', `/webhooks/${hook.webhook_id}`, `/webhook-events/${eventId}`]) {
      const p = await page(h, `${C}${path}`);
      expect(p.status, path).toBe(200);
      expect(p.text, path).toContain(shown);
      expect(p.text, path).not.toContain('s3cret');
    }
  });

  it('Send test event: greyed out with the reason on a disabled webhook and on a site moved to free', async () => {
    const h = fresh();
    const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: rx.url })).body;
    const button = async () => (await page(h, `${C}/webhooks/${hook.webhook_id}`)).text.match(/<button[^>]*>Send test event<\/button>\n<span[^>]*>[^<]*/)![0];
    expect(await button()).not.toContain('disabled');
    await h.admin('PATCH', `/sites/${h.site.site_id}`, { plan: 'free' });
    expect(await button()).toMatch(/disabled aria-describedby="trigger-off">Send test event<\/button>\n<span id="trigger-off"[^>]*>The site is on the free plan/);
    await h.admin('PATCH', `/sites/${h.site.site_id}`, { plan: 'paid' });
    await h.admin('POST', `/webhooks/${hook.webhook_id}/disable`);
    expect(await button()).toContain('Enable the webhook to send events.');
  });

  it('Send test event on a webhook disabled (or a site moved to free) since the page opened: back on its page, pointing at its Enable button', async () => {
    const h = fresh();
    const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: rx.url })).body;
    await h.admin('POST', `/webhooks/${hook.webhook_id}/disable`);
    const sent = await post(h, `${C}/webhooks/${hook.webhook_id}/trigger`);
    expect(sent.status).toBe(303);
    expect(sent.location).toBe(`${C}/webhooks/${hook.webhook_id}?refused=webhook_disabled`);
    const shown = (await page(h, sent.location)).text;
    expect(shown).toMatch(/role="alert"[^>]*><p>Not sent: the webhook is disabled[^<]*Enable button/);
    expect(shown).not.toContain('vtr webhooks enable');
    expect(shown).toContain(`aria-label="Enable webhook `);
    await h.admin('POST', `/webhooks/${hook.webhook_id}/enable`);
    await h.admin('PATCH', `/sites/${h.site.site_id}`, { plan: 'free' });
    const free = await post(h, `${C}/webhooks/${hook.webhook_id}/trigger`);
    expect(free.location).toBe(`${C}/webhooks/${hook.webhook_id}?refused=plan_required`);
    expect((await page(h, free.location)).text).toMatch(/role="alert"[^>]*><p>Not sent: the site is on the free plan/);
    expect((await h.admin('GET', `/webhooks/${hook.webhook_id}/events`)).body).toEqual([]);
  });

  it('shows why a webhook was refused: a bad URL, a free site', async () => {
    const h = fresh();
    const bad = await post(h, `${C}/webhooks`, { site_id: h.site.site_id, url: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/role="alert" id="form-error"><p>url: must use http or https/);
    expect(bad.text).toContain('value="javascript:alert(1)"');
    expect(bad.text).toMatch(/id="hook-url"[^>]*aria-invalid="true"[^>]*autofocus/);
    const free = (await h.admin('POST', '/sites', { name: 'Free', plan: 'free' })).body;
    const refused = await post(h, `${C}/webhooks`, { site_id: free.site_id, url: 'https://example.com/' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('paid plans only');
    expect(refused.text).toMatch(/<select id="hook-site"[^>]*aria-invalid="true"[^>]*autofocus/);
    expect(refused.text).not.toMatch(/id="hook-url"[^>]*aria-invalid/);
    expect((await h.admin('GET', '/webhooks')).body).toEqual([]);
  });
});

describe('console: webhook events and the Retry button', () => {
  it('follows an event from retrying (Retry disabled, with why) to failed (enabled) to delivered by hand', async () => {
    const h = fresh();
    rx.answer(() => 500);
    const site = h.site.site_id;
    await post(h, `${C}/webhooks`, { site_id: site, url: rx.url });
    await post(h, `${C}/views`, { site_id: site, name: 'Tor <exits>', filter: 'risk_level = invalid', trigger_webhooks: 'on' });
    const [hook] = (await h.admin('GET', '/webhooks')).body;
    const session = await h.createSession({ ip: '203.0.113.9' });
    await advance(h, 0);
    const [ev] = (await h.admin('GET', `/webhooks/${hook.webhook_id}/events`)).body;
    expect(ev.status).toBe('retrying');
    const evPage = `${C}/webhook-events/${ev.webhook_event_id}`;

    let p = await page(h, evPage);
    expect(p.text).toMatch(/<button type="submit" id="retry" aria-describedby="retry-reason" disabled>Retry<\/button>/);
    expect(p.text).toContain('Automatic retries in progress — next attempt at');
    // The time names its zone once.
    expect(p.text).not.toMatch(/UTC<span class="emu"> \(emulated\)<\/span><\/time> UTC/);
    expect(p.text).not.toMatch(/UTC<\/time> UTC/);
    expect(p.text).toContain('Tor &lt;exits&gt;');
    expect(p.text).toContain('<td>auto</td>');
    // Posting anyway (an old page) is refused by the service, and the page says so.
    const early = await post(h, `${evPage}/retry`);
    expect(early.location).toBe(`${evPage}?refused=retries_in_progress`);
    expect((await page(h, early.location)).text).toContain('Not retried: its automatic retries are not done yet');

    // Each move runs the retries that fall due on the way (hourly), until the five are done.
    for (let i = 0; i < 5; i++) await advance(h, '2h');
    p = await page(h, evPage);
    expect(p.text).toContain('ev-failed');
    expect(p.text).toMatch(/id="retry" aria-describedby="retry-reason">Retry</);
    expect(p.text).toMatch(/<h2 id="attempts-h">Attempts \(6\)/);
    const list = await page(h, `${C}/webhooks/${hook.webhook_id}?status=failed`);
    expect(list.text).toContain(`id="ev-${ev.webhook_event_id}"`);
    expect((await page(h, `${C}/webhooks/${hook.webhook_id}?status=delivered`)).text).not.toContain(`id="ev-${ev.webhook_event_id}"`);

    const failedRetry = await post(h, `${evPage}/retry`);
    expect(failedRetry.location).toBe(`${evPage}?retried=7`);
    expect((await page(h, failedRetry.location)).text).toMatch(/Retried: attempt 7 failed \(<span class="badge status-5">500<\/span>\)/);

    rx.answer(() => 200);
    const retried = await post(h, `${evPage}/retry`);
    expect(retried.location).toBe(`${evPage}?retried=8`);
    p = await page(h, retried.location);
    expect(p.text).toContain('Retried: attempt 8 was delivered');
    expect(p.text).toContain('ev-delivered');
    expect(p.text).toContain('<td>manual</td>');
    expect(p.text).toMatch(/id="retry" aria-describedby="retry-reason" disabled>/);
    expect(p.text).toContain('Already delivered');
    expect((await post(h, `${evPage}/retry`)).location).toBe(`${evPage}?refused=already_delivered`);

    // The session page lists the event it caused, linking to it and its webhook.
    const s = await page(h, `${C}/sessions/${session.session_id}`);
    expect(s.text).toContain(`href="${evPage}"`);
    expect(s.text).toContain(`href="${C}/webhooks/${hook.webhook_id}"`);
    expect(s.text).toContain('ev-delivered');
  });

  it('hostile query and form values: no 5xx, nothing picked from the prototype', async () => {
    const h = fresh();
    for (const v of ['__proto__', 'constructor', '%00', '<x>', 'x'.repeat(3000)].map(encodeURIComponent)) {
      for (const p of [`views?done=${v}&site=${v}`, `webhooks?done=${v}&created=${v}&site=${v}`, `webhooks/${v}?status=${v}`, `webhook-events/${v}?refused=${v}&retried=${v}`, `views/${v}`]) {
        const r = await page(h, `${C}/${p}`);
        expect(r.status, p).toBeLessThan(500);
        expect(r.text).not.toContain('[object Object]');
        expect(r.text).not.toContain('<x>');
      }
    }
    for (const body of [{} as Record<string, string>, { site_id: '__proto__', name: 'n', filter: 'x = 1' }, { site_id: h.site.site_id, name: 'n', filter: 'x'.repeat(5000) }]) {
      expect((await post(h, `${C}/views`, body)).status).toBeLessThan(500);
      expect((await post(h, `${C}/webhooks`, body)).status).toBeLessThan(500);
    }
  });

  it('row fragments follow the status filter; unknown ids are 404 pages and 204 rows', async () => {
    const h = fresh();
    rx.answer(() => 200);
    await post(h, `${C}/webhooks`, { site_id: h.site.site_id, url: rx.url });
    await post(h, `${C}/views`, { site_id: h.site.site_id, name: 'All', filter: 'page_views >= 0', trigger_webhooks: 'on' });
    const [hook] = (await h.admin('GET', '/webhooks')).body;
    await h.createSession();
    await advance(h, 0);
    const [ev] = (await h.admin('GET', `/webhooks/${hook.webhook_id}/events`)).body;
    const row = (q: string) => h.request(`${C}/webhooks/${hook.webhook_id}/rows/${ev.webhook_event_id}${q}`);
    expect((await row('')).status).toBe(200);
    expect((await row('?status=delivered')).status).toBe(200);
    expect((await row('?status=failed')).status).toBe(204);
    expect((await h.request(`${C}/webhooks/wh_other/rows/${ev.webhook_event_id}`)).status).toBe(204);
    expect((await page(h, `${C}/webhook-events/msg_nope`)).status).toBe(404);
    expect((await page(h, `${C}/webhooks/wh_nope`)).status).toBe(404);
    expect((await post(h, `${C}/webhook-events/msg_nope/retry`)).status).toBe(404);
  });
});
