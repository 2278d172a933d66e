// Contract §2 (a frozen clock moves only with `clock advance`) with §4 (duration, engagement, the
// 30-minute session): advancing by exactly a threshold crosses it, however many timestamps the
// emulator handed out within the frozen millisecond before.
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator.js';
import { TEST_USER_AGENTS as UA } from '../../src/domain/test-values.js';

let emu: ReturnType<typeof createEmulator> | null = null;
afterEach(() => {
  emu?.close();
  emu = null;
});

function frozen() {
  emu = createEmulator({ dbPath: ':memory:', clock: 'frozen' });
  const e = emu;
  const { site_key: siteKey } = e.bootstrap!.site;
  const token = e.bootstrap!.token.token;
  const agent = async (path: string, extra: Record<string, unknown> = {}) => {
    const res = await e.app.request(`/_vtr/agent/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'user-agent': UA.chromeWindows, 'x-forwarded-for': '192.0.2.44' },
      body: JSON.stringify({ site_key: siteKey, url: 'https://shop.example.com/', ...extra }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { session_id: string; probe_id: string; fingerprint: string };
  };
  const pageview = (extra: Record<string, unknown> = {}) => agent('pageview', extra);
  const event = async (ref: { session_id: string; probe_id: string }, name: string) => {
    const res = await e.app.request('/_vtr/agent/event', {
      method: 'POST', headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ site_key: siteKey, session_id: ref.session_id, probe_id: ref.probe_id, name }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const ping = (ref: { session_id: string; probe_id: string }) => agent('ping', { session_id: ref.session_id, probe_id: ref.probe_id });
  const advance = async (duration: string) => {
    const res = await e.app.request('/_vtr/api/clock/advance', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ duration }) });
    expect(res.status).toBe(200);
  };
  const session = async (id: string) => (await (await e.app.request(`/api/v1/session/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as Record<string, unknown>;
  return { pageview, ping, event, advance, session };
}

describe('frozen clock and sessions', () => {
  it('clock advance 60s between two page views: duration 60, engaged', async () => {
    const { pageview, advance, session } = frozen();
    const first = await pageview();
    await advance('60s');
    await pageview({ fingerprint: first.fingerprint });
    expect(await session(first.session_id)).toMatchObject({ page_views: 2, duration: 60, engagement_level: 'engaged' });
  });

  it('clock advance 10s after one page view, then a ping: duration 10, not bounced', async () => {
    const { pageview, ping, advance, session } = frozen();
    const first = await pageview();
    await advance('10s');
    await ping(first);
    expect(await session(first.session_id)).toMatchObject({ page_views: 1, duration: 10, engagement_level: 'normal' });
  });

  it('clock advance 30m without a page view: the next page view starts a new session', async () => {
    const { pageview, advance } = frozen();
    const first = await pageview();
    await advance('30m');
    const next = await pageview({ fingerprint: first.fingerprint });
    expect(next.session_id).not.toBe(first.session_id);
  });

  it("clock advance 30m without a page view: the agent's event for the ended session is refused, not added to it", async () => {
    const { pageview, ping, event, advance, session } = frozen();
    const first = await pageview();
    await advance('29m');
    await ping(first);
    expect(await event(first, 'in_time')).toEqual({ status: 200, body: { success: true } });
    // A ping is not a page view: the 30 minutes still run from the page view.
    await advance('1m');
    expect(await event(first, 'late')).toMatchObject({ status: 409, body: { code: 'session_expired' } });
    expect((await session(first.session_id)).custom_events).toEqual(['in_time']);
  });
});
