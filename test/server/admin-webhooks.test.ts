import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, TIMESTAMP, type Harness } from '../helpers/emulator.js';
import { startReceiver, waitUntil, type Receiver } from '../helpers/receiver.js';

describe('management API: webhooks, events and the trigger', () => {
  let h: Harness;
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startReceiver();
  });
  afterAll(() => rx.close());
  beforeEach(() => {
    h = harness({ clock: 'manual', retrySchedule: [3_600_000, 3_600_000, 3_600_000, 3_600_000, 3_600_000] });
  });
  afterEach(() => h.close());

  const site = () => h.site.site_id;
  const createHook = async (url = rx.url, siteId = site()) => (await h.admin('POST', `/sites/${siteId}/webhooks`, { url })).body;
  const createView = async (filter: string, trigger_webhooks = true, siteId = site()) =>
    (await h.admin('POST', `/sites/${siteId}/views`, { name: `v ${filter}`, filter, trigger_webhooks })).body;
  const events = async (webhookId: string) => (await h.admin('GET', `/webhooks/${webhookId}/events`)).body as any[];
  /** Runs every due attempt and waits for it (a zero clock move). */
  const settle = () => h.admin('POST', '/clock/advance', { duration: 0 });

  it('webhooks: create, list, get, change, disable, enable, delete', async () => {
    const r = await h.admin('POST', `/sites/${site()}/webhooks`, { url: 'https://example.com/hook' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      webhook_id: expect.stringMatching(/^wh_/),
      site_id: site(),
      url: 'https://example.com/hook',
      status: 'enabled',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      consecutive_failures: 0,
      created_at: expect.stringMatching(TIMESTAMP),
    });
    const id = r.body.webhook_id;
    expect((await h.admin('GET', `/sites/${site()}/webhooks`)).body).toEqual([r.body]);
    expect((await h.admin('GET', `/webhooks/${id}`)).body).toEqual(r.body);
    expect((await h.admin('PATCH', `/webhooks/${id}`, { url: 'http://127.0.0.1:1/x' })).body.url).toBe('http://127.0.0.1:1/x');
    expect((await h.admin('POST', `/webhooks/${id}/disable`)).body.status).toBe('disabled');
    expect((await h.admin('POST', `/webhooks/${id}/enable`)).body.status).toBe('enabled');
    expect((await h.admin('PATCH', `/webhooks/${id}`, { status: 'disabled' })).body.status).toBe('disabled');
    expect((await h.admin('DELETE', `/webhooks/${id}`)).body).toEqual({ deleted: true, webhook_id: id });
    expect((await h.admin('GET', `/webhooks/${id}`)).status).toBe(404);
  });

  it('webhooks: PATCH with url or status null is refused saying null is not a value and to leave it out to keep the current one', async () => {
    const hook = await createHook('https://example.com/hook');
    const url = await h.admin('PATCH', `/webhooks/${hook.webhook_id}`, { url: null });
    expect(url).toMatchObject({ status: 400, body: { code: 'invalid_request', field: 'url', message: 'url: cannot be null (a webhook needs a url); leave it out to keep the current one' } });
    const status = await h.admin('PATCH', `/webhooks/${hook.webhook_id}`, { status: null });
    expect(status).toMatchObject({ status: 400, body: { code: 'invalid_request', field: 'status', message: 'status: cannot be null (a webhook is enabled or disabled); leave it out to keep the current one' } });
    // Other wrong values keep their own wording, and nothing changed.
    expect((await h.admin('PATCH', `/webhooks/${hook.webhook_id}`, { url: 5 })).body.message).toBe('url: expected a string');
    expect((await h.admin('PATCH', `/webhooks/${hook.webhook_id}`, { status: 'off' })).body.message).toBe('status: must be one of enabled, disabled');
    expect((await h.admin('GET', `/webhooks/${hook.webhook_id}`)).body).toMatchObject({ url: 'https://example.com/hook', status: 'enabled' });
  });

  it('webhooks: several per site, each with its own secret', async () => {
    const a = await createHook('https://a.example/');
    const b = await createHook('https://b.example/');
    expect(a.secret).not.toBe(b.secret);
    expect((await h.admin('GET', `/sites/${site()}/webhooks`)).body).toHaveLength(2);
  });

  it('webhooks: a URL that is not http(s) is a 400 naming url', async () => {
    for (const url of ['ftp://example.com/', 'not a url', '/relative', 'javascript:alert(1)']) {
      const r = await h.admin('POST', `/sites/${site()}/webhooks`, { url });
      expect(r.status, url).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_request', field: 'url' });
    }
    expect((await h.admin('POST', `/sites/${site()}/webhooks`, { url: 5 })).body).toMatchObject({ field: 'url' });
    expect((await h.admin('POST', `/sites/${site()}/webhooks`, {})).body).toMatchObject({ field: 'url' });
  });

  it('webhooks: a URL with no host after "//" (http:///hook, read as http://hook/) is a 400 naming url, on create and on change', async () => {
    for (const url of ['http:///hook', 'https:////example.com/hook']) {
      const r = await h.admin('POST', `/sites/${site()}/webhooks`, { url });
      expect(r.status, url).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_request', field: 'url', message: expect.stringContaining('host') });
    }
    const hook = await createHook('http://127.0.0.1:9000/hook');
    expect((await h.admin('PATCH', `/webhooks/${hook.webhook_id}`, { url: 'http:///hook' })).body).toMatchObject({ code: 'invalid_request', field: 'url' });
  });

  it('webhooks: a URL pasted with spaces or a line break around it is stored without them, on create and on change', async () => {
    const hook = await createHook(' http://127.0.0.1:9000/hook\n');
    expect(hook.url).toBe('http://127.0.0.1:9000/hook');
    const changed = (await h.admin('PATCH', `/webhooks/${hook.webhook_id}`, { url: '\thttp://127.0.0.1:9001/hook ' })).body;
    expect(changed.url).toBe('http://127.0.0.1:9001/hook');
    expect((await h.admin('GET', `/webhooks/${hook.webhook_id}`)).body.url).toBe('http://127.0.0.1:9001/hook');
    expect((await h.admin('POST', `/sites/${site()}/webhooks`, { url: '   ' })).body).toMatchObject({ code: 'invalid_request', field: 'url' });
  });

  it('webhooks: creating one on a free site is 403 plan_required', async () => {
    const free = (await h.admin('POST', '/sites', { name: 'Free', plan: 'free' })).body;
    const r = await h.admin('POST', `/sites/${free.site_id}/webhooks`, { url: 'https://example.com/' });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('plan_required');
  });

  it('webhooks: unknown ids are 404, wrong methods 405, bad event status filter 400', async () => {
    expect((await h.admin('GET', '/webhooks/wh_nope')).status).toBe(404);
    expect((await h.admin('POST', '/webhooks/wh_nope/enable')).status).toBe(404);
    expect((await h.admin('GET', '/webhook-events/msg_nope')).status).toBe(404);
    expect((await h.admin('POST', '/webhook-events/msg_nope/retry')).status).toBe(404);
    expect((await h.admin('POST', '/sites/site_nope/webhooks', { url: 'https://x.example/' })).status).toBe(404);
    expect((await h.admin('GET', '/webhook-events/msg_x/retry')).status).toBe(405);
    const hook = await createHook();
    expect((await h.admin('GET', `/webhooks/${hook.webhook_id}/events?status=lost`)).body).toMatchObject({ code: 'invalid_request', field: 'status' });
  });

  it('trigger: a new matching session makes one event per enabled webhook, in the contract shape', async () => {
    const a = await createHook();
    const b = await createHook();
    const off = await createHook();
    await h.admin('POST', `/webhooks/${off.webhook_id}/disable`);
    const view = await createView('page_views >= 1');
    const s = await h.createSession();
    await settle();
    const [ea] = await events(a.webhook_id);
    expect(await events(b.webhook_id)).toHaveLength(1);
    expect(await events(off.webhook_id)).toHaveLength(0);
    expect(ea).toMatchObject({
      webhook_event_id: expect.stringMatching(/^msg_/),
      webhook_id: a.webhook_id,
      saved_view_id: view.saved_view_id,
      session_id: s.session_id,
      status: 'delivered',
      auto_retries_remaining: 5,
      next_attempt_at: null,
      created_at: expect.stringMatching(TIMESTAMP),
      attempts: [{ attempt: 1, trigger: 'auto', at: expect.stringMatching(TIMESTAMP), status_code: 200, error: null, duration_ms: expect.any(Number) }],
    });
    const one = (await h.admin('GET', `/webhook-events/${ea.webhook_event_id}`)).body;
    expect(one).toMatchObject({ webhook_event_id: ea.webhook_event_id, attempts: ea.attempts });
    expect(one.payload).toMatchObject({ session_id: s.session_id, hook_type: 'saved_view', webhook_event_id: ea.webhook_event_id });
    // The session's own list: both enabled webhooks' events, nothing of the disabled one.
    const bySession = (await h.admin('GET', `/sessions/${s.session_id}/webhook-events`)).body as any[];
    expect(bySession.map((e) => e.webhook_id).sort()).toEqual([a.webhook_id, b.webhook_id].sort());
    expect((await h.admin('GET', '/sessions/ses_nope/webhook-events')).status).toBe(404);
  });

  it('trigger: a session matches a view once; later changes do not trigger again', async () => {
    const hook = await createHook();
    await createView('page_views >= 1');
    const s = await h.createSession({ fingerprint: 'fp_once' });
    await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'signup' } });
    await h.createSession({ fingerprint: 'fp_once' }); // a new session of the same visitor: its own match
    await settle();
    const evs = await events(hook.webhook_id);
    expect(evs).toHaveLength(2);
    expect(new Set(evs.map((e) => e.session_id)).size).toBe(2);
  });

  it('trigger: a custom event alone does not trigger, but the change it derives can', async () => {
    const hook = await createHook();
    await createView('engagement_level = converted');
    const s = await h.createSession();
    await settle();
    expect(await events(hook.webhook_id)).toHaveLength(0);
    await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'newsletter' } });
    await settle();
    expect(await events(hook.webhook_id)).toHaveLength(0);
    await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'conversion' } });
    await settle();
    const [e] = await events(hook.webhook_id);
    expect(e).toMatchObject({ session_id: s.session_id, status: 'delivered' });
    const { payload } = (await h.admin('GET', `/webhook-events/${e.webhook_event_id}`)).body;
    expect(payload.engagement_level).toBe('converted');
    expect(payload.custom_events).toEqual(['newsletter', 'conversion']);
  });

  it('trigger: a view without trigger_webhooks sends nothing', async () => {
    const hook = await createHook();
    await createView('page_views >= 1', false);
    await h.createSession();
    await settle();
    expect(await events(hook.webhook_id)).toHaveLength(0);
  });

  it('trigger: a new or changed view is not backfilled over existing sessions', async () => {
    const hook = await createHook();
    const s = await h.createSession();
    const view = await createView('page_views >= 1');
    await h.admin('PATCH', `/views/${view.saved_view_id}`, { filter: 'page_views >= 0' });
    await settle();
    expect(await events(hook.webhook_id)).toHaveLength(0);
    // A custom event that changes no derived field is not a change the views see (contract §3).
    await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'x' } });
    await settle();
    expect(await events(hook.webhook_id)).toHaveLength(0);
    // The session's next change (a conversion makes it `converted`) is its first match: that one triggers.
    await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'conversion' } });
    await settle();
    expect(await events(hook.webhook_id)).toHaveLength(1);
  });

  it('trigger: a site moved to free creates no events; moved back to paid it delivers again', async () => {
    const hook = await createHook();
    await createView('page_views >= 1');
    await h.admin('PATCH', `/sites/${site()}`, { plan: 'free' });
    await h.createSession();
    await settle();
    expect(await events(hook.webhook_id)).toHaveLength(0);
    await h.admin('PATCH', `/sites/${site()}`, { plan: 'paid' });
    await h.createSession();
    await settle();
    expect(await events(hook.webhook_id)).toHaveLength(1);
  });

  it('delivery: due attempts of a site moved to free are held until it is paid again', async () => {
    rx.answer(() => 500);
    try {
      const hook = await createHook();
      await createView('page_views >= 1');
      await h.createSession();
      await settle();
      const [e] = await events(hook.webhook_id);
      expect(e.status).toBe('retrying');
      rx.answer(() => 200);
      await h.admin('PATCH', `/sites/${site()}`, { plan: 'free' });
      await h.admin('POST', '/clock/advance', { duration: '2h' });
      expect((await events(hook.webhook_id))[0]).toMatchObject({ status: 'retrying', attempts: [expect.anything()] });
      const retry = await h.admin('POST', `/webhook-events/${e.webhook_event_id}/retry`);
      expect(retry.body.code).toBe('retries_in_progress');
      // The harness's clock is not the real one: the time it names says so.
      expect(retry.body.message).toMatch(/the next automatic attempt is at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC \(emulated\)/);
      // Back on paid, the held attempt runs at once (no clock move, not the dispatcher's 30 s backstop).
      await h.admin('PATCH', `/sites/${site()}`, { plan: 'paid' });
      let latest: any;
      await waitUntil(async () => (latest = (await events(hook.webhook_id))[0]).status === 'delivered', 5000);
      expect(latest).toMatchObject({ status: 'delivered', attempts: [{ status_code: 500 }, { status_code: 200 }] });
    } finally {
      rx.answer(() => 200);
    }
  });

  it('test event: session_id or saved_view_id null means left out: a new test session, the default view', async () => {
    const hook = await createHook();
    const made = await h.admin('POST', `/webhooks/${hook.webhook_id}/trigger`, { session_id: null, saved_view_id: null });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ webhook_id: hook.webhook_id, saved_view_id: 'view_test', session_id: expect.stringMatching(/^ses_/) });
    // A wrong type is still named.
    const bad = await h.admin('POST', `/webhooks/${hook.webhook_id}/trigger`, { session_id: 5 });
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid_request', field: 'session_id' } });
  });

  it('test event: a session or view of another site is refused naming the site it is on and what to give instead', async () => {
    const hook = await createHook();
    const other = (await h.admin('POST', '/sites', { name: 'Other shop', plan: 'paid' })).body;
    const session = (await h.admin('POST', `/sites/${other.site_id}/sessions`, {})).body;
    const view = await createView('risk_level = invalid', true, other.site_id);
    const bySession = await h.admin('POST', `/webhooks/${hook.webhook_id}/trigger`, { session_id: session.session_id });
    expect(bySession).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(bySession.body.message).toBe(
      `session ${session.session_id} is on site ${other.site_id} ("Other shop"), not on the webhook's site ${site()} ("Local site"): ` +
      `give a session of ${site()} (vtr sessions list --site ${site()}), leave the session out for a new test session, or trigger a webhook of ${other.site_id} (vtr webhooks list --site ${other.site_id})`,
    );
    const byView = await h.admin('POST', `/webhooks/${hook.webhook_id}/trigger`, { saved_view_id: view.saved_view_id });
    expect(byView).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(byView.body.message).toBe(
      `saved view ${view.saved_view_id} is on site ${other.site_id} ("Other shop"), not on the webhook's site ${site()} ("Local site"): ` +
      `give a view of ${site()} (vtr views list --site ${site()}), leave the view out for the site's first one, or trigger a webhook of ${other.site_id} (vtr webhooks list --site ${other.site_id})`,
    );
    // Nothing was made for either.
    expect(await events(hook.webhook_id)).toEqual([]);
  });

  it('webhooks: a URL holding a control character (a line break, a tab, NUL) is a 400 naming url, on create and change', async () => {
    const hook = await createHook('https://example.com/hook');
    for (const url of ['https://example.com/ho\nok', 'https://example.com/\thook', 'https://exa\u0000mple.com/']) {
      const created = await h.admin('POST', `/sites/${site()}/webhooks`, { url });
      expect(created, JSON.stringify(url)).toMatchObject({ status: 400, body: { code: 'invalid_request', field: 'url', message: 'url: must not contain control characters (line breaks, tabs, NUL)' } });
      expect((await h.admin('PATCH', `/webhooks/${hook.webhook_id}`, { url })).status, JSON.stringify(url)).toBe(400);
    }
    expect((await h.admin('GET', `/sites/${site()}/webhooks`)).body).toEqual([hook]);
    // The line break a paste brings along at the end is still dropped.
    expect((await h.admin('POST', `/sites/${site()}/webhooks`, { url: 'https://example.com/pasted\r\n' })).body.url).toBe('https://example.com/pasted');
  });

  it('webhooks: a host and port given without the scheme is a 400 saying the http:// URL meant, on create and change', async () => {
    const hook = await createHook('https://example.com/hook');
    const cases = [
      ['localhost:9000/hook', 'url: must use http or https, not localhost (did you mean http://localhost:9000/hook?)'],
      ['127.0.0.1:9000', 'url: must be an absolute http:// or https:// URL (did you mean http://127.0.0.1:9000?)'],
      // The password is not said back (as everywhere a webhook URL is shown).
      ['admin:1234@localhost:9000', 'url: must use http or https, not admin (did you mean http://admin:***@localhost:9000/?)'],
    ];
    for (const [url, message] of cases) {
      const error = { status: 400, body: { code: 'invalid_request', field: 'url', message } };
      expect(await h.admin('POST', `/sites/${site()}/webhooks`, { url }), url).toMatchObject(error);
      expect(await h.admin('PATCH', `/webhooks/${hook.webhook_id}`, { url }), url).toMatchObject(error);
    }
    // Nothing to suggest for a URL that is not a host and port: the message stays as it was.
    expect((await h.admin('POST', `/sites/${site()}/webhooks`, { url: 'not a url' })).body.message).toBe('url: must be an absolute http:// or https:// URL');
  });

  it('notifications: the outbox lists newest first and filters by site', async () => {
    expect((await h.admin('GET', '/notifications')).body).toEqual([]);
    expect((await h.admin('GET', `/notifications?site=${site()}`)).status).toBe(200);
    expect((await h.admin('GET', '/notifications?limit=0')).status).toBe(400);
  });
});
