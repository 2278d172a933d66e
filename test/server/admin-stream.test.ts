// The stream is "everything that happens" (contract §7): management changes are on it too.
import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorEvent } from '../../src/events/bus.js';
import { harness, type Harness } from '../helpers/emulator.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('management API: the event stream', () => {
  it('stream: sites, keys, tokens, views, webhooks, the clock and state resets are published as they change', async () => {
    h = harness({ clock: 'manual' });
    const seen: EmulatorEvent[] = [];
    const off = h.emulator.deps.bus.subscribe((e) => seen.push(e));
    const site = (await h.admin('POST', '/sites', { name: 'Shop' })).body;
    await h.admin('PATCH', `/sites/${site.site_id}`, { name: 'Shop 2' });
    await h.admin('POST', `/sites/${site.site_id}/keys/rotate`);
    const token = (await h.admin('POST', `/sites/${site.site_id}/tokens`)).body;
    await h.admin('DELETE', `/tokens/${token.token}`);
    const view = (await h.admin('POST', `/sites/${site.site_id}/views`, { name: 'Bad', filter: 'risk_level = invalid' })).body;
    await h.admin('PATCH', `/views/${view.saved_view_id}`, { name: 'Worse' });
    await h.admin('DELETE', `/views/${view.saved_view_id}`);
    const hook = (await h.admin('POST', `/sites/${site.site_id}/webhooks`, { url: 'http://127.0.0.1:9/hook' })).body;
    await h.admin('DELETE', `/webhooks/${hook.webhook_id}`);
    await h.admin('POST', '/clock/advance', { duration: '1h' });
    await h.admin('DELETE', `/sites/${site.site_id}`);
    await h.admin('POST', '/state/reset');
    off();
    const types = seen.map((e) => e.type).filter((t) => !t.startsWith('request.'));
    expect(types).toEqual([
      'site.created', 'site.updated', 'site.updated', 'access_token.created', 'access_token.revoked',
      'saved_view.created', 'saved_view.updated', 'saved_view.deleted', 'webhook.created', 'webhook.deleted',
      'clock.changed', 'site.deleted',
      // A reset makes the default site and its token again, as a first start does.
      'site.created', 'access_token.created', 'state.replaced',
    ]);
    expect(seen.find((e) => e.type === 'saved_view.updated')?.data).toMatchObject({ saved_view_id: view.saved_view_id, name: 'Worse' });
    expect(seen.find((e) => e.type === 'clock.changed')?.data).toMatchObject({ mode: 'manual', offset_ms: 3_600_000 });
    expect(seen.find((e) => e.type === 'access_token.revoked')?.data).toMatchObject({ token: token.token, revoked_at: expect.any(String) });
  });
});

describe('management API: a change that changes nothing', () => {
  it('stream: PATCH with {} (or the values it has) of a site, rule, view or webhook answers 200 with it and publishes no update', async () => {
    h = harness();
    const site = (await h.admin('POST', '/sites', { name: 'Shop', plan: 'paid' })).body;
    const view = (await h.admin('POST', `/sites/${site.site_id}/views`, { name: 'Bad', filter: 'risk_level = invalid' })).body;
    const hook = (await h.admin('POST', `/sites/${site.site_id}/webhooks`, { url: 'http://127.0.0.1:9/hook' })).body;
    const seen: EmulatorEvent[] = [];
    const off = h.emulator.deps.bus.subscribe((e) => seen.push(e));
    for (const [path, body] of [
      [`/sites/${site.site_id}`, {}], [`/sites/${site.site_id}`, { name: 'Shop' }],
      [`/sites/${site.site_id}/rules/bot`, {}], [`/sites/${site.site_id}/rules/bot`, { enabled: true }],
      [`/views/${view.saved_view_id}`, {}], [`/views/${view.saved_view_id}`, { name: 'Bad' }],
      [`/webhooks/${hook.webhook_id}`, {}],
    ] as const) {
      const r = await h.admin('PATCH', path, body);
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(200);
    }
    expect((await h.admin('PATCH', `/sites/${site.site_id}/rules/bot`, {})).body).toMatchObject({ rule_id: 'bot', enabled: true });
    off();
    expect(seen.map((e) => e.type).filter((t) => !t.startsWith('request.'))).toEqual([]);
  });

  it('stream: PATCH of a webhook with its own url or status, and enable/disable of one already so, publish no webhook.updated', async () => {
    h = harness();
    const site = (await h.admin('POST', '/sites', { name: 'Shop', plan: 'paid' })).body;
    const hook = (await h.admin('POST', `/sites/${site.site_id}/webhooks`, { url: 'http://127.0.0.1:9/hook' })).body;
    const seen: EmulatorEvent[] = [];
    const off = h.emulator.deps.bus.subscribe((e) => seen.push(e));
    const path = `/webhooks/${hook.webhook_id}`;
    for (const body of [{ url: 'http://127.0.0.1:9/hook' }, { url: ' http://127.0.0.1:9/hook\n' }, { status: 'enabled' }, { url: 'http://127.0.0.1:9/hook', status: 'enabled' }]) {
      const r = await h.admin('PATCH', path, body);
      expect(r.status, JSON.stringify(body)).toBe(200);
      expect(r.body).toMatchObject({ url: 'http://127.0.0.1:9/hook', status: 'enabled' });
    }
    expect((await h.admin('POST', `${path}/enable`)).status).toBe(200);
    await h.admin('POST', `${path}/disable`);
    await h.admin('POST', `${path}/disable`);
    await h.admin('PATCH', path, { status: 'disabled' });
    off();
    expect(seen.map((e) => e.type).filter((t) => !t.startsWith('request.'))).toEqual(['webhook.updated']);
    expect(seen.find((e) => e.type === 'webhook.updated')?.data).toMatchObject({ status: 'disabled' });
  });
});

describe('management API: the stream\'s ?types=', () => {
  it('stream: ?types= keeps the named types and prefixes; one that names no event type is a 400 naming it', async () => {
    h = harness();
    const ok = await h.request('/_vtr/api/stream?types=webhook_,session.created');
    expect(ok.status).toBe(200);
    await ok.body!.cancel();
    const typo = await h.request('/_vtr/api/stream?types=session.created,webhook-attempt');
    expect(typo.status).toBe(400);
    const body = (await typo.json()) as { message: string };
    expect(body).toMatchObject({ code: 'invalid_request', field: 'types' });
    expect(body.message).toContain('"webhook-attempt"');
    expect(body.message).toContain('webhook_attempt.created');
  });

  it('stream: ?types= empty, or only commas and blanks, is a 400 naming types, not every event type', async () => {
    h = harness();
    for (const value of ['', ',', '%20,%20,']) {
      const res = await h.request(`/_vtr/api/stream?types=${value}`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { message: string };
      expect(body).toMatchObject({ code: 'invalid_request', field: 'types' });
      expect(body.message).toMatch(/^types: must not be empty/);
      expect(body.message).toContain('leave types out for every event type');
    }
  });
});

describe('management API: a stream client that does not read', () => {
  it('stream: a client 10,000 events behind is cut off instead of buffered for', async () => {
    h = harness();
    const res = await h.request('/_vtr/api/stream');
    const reader = res.body!.getReader();
    await reader.read(); // the `ready` event: subscribed
    for (let i = 0; i < 10_050; i++) h.emulator.deps.bus.publish({ type: 'clock.changed', data: { i } });
    // Reading now ends (the server gave up on this client) instead of waiting for more forever.
    let events = 0;
    const drained = (async () => {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return 'ended';
        events += (new TextDecoder().decode(value).match(/event: clock\.changed/g) ?? []).length;
      }
    })();
    const outcome = await Promise.race([drained, new Promise((r) => setTimeout(() => r('still open'), 5000))]);
    expect(outcome).toBe('ended');
    expect(events).toBeLessThan(10_050);
  });
});
