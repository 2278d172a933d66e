// The dispatcher through a database that stops taking writes (SQLite's own SQLITE_READONLY, from
// `PRAGMA query_only` on the connection): nothing is marked failed, and the event is sent again once
// writes work.
import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/domain/clock.js';
import { createEventBus } from '../../src/events/bus.js';
import { createStore } from '../../src/store/index.js';
import { createSiteService } from '../../src/sites/service.js';
import { createSessionService } from '../../src/sessions/service.js';
import { createWebhookSystem } from '../../src/webhooks/index.js';
import type { SendResult } from '../../src/webhooks/sender.js';
import { waitUntil } from '../helpers/receiver.js';

describe('dispatcher and storage faults', () => {
  it('dispatcher: an attempt whose result cannot be written leaves the event due, and it runs again after recovery', async () => {
    const clock = createClock('manual', 0, () => Date.UTC(2026, 10, 21, 9));
    const store = createStore({ path: ':memory:' });
    const bus = createEventBus();
    const sites = createSiteService({ store, clock });
    const site = sites.bootstrap()!.site;
    const sessions = createSessionService({ store, clock, bus });
    const calls: Array<{ headers: Record<string, string>; resolve(r: SendResult): void }> = [];
    const logged: string[] = [];
    const send = (_url: string, headers: Record<string, string>) => new Promise<SendResult>((resolve) => calls.push({ headers, resolve }));
    const system = createWebhookSystem({ store, clock, bus, send, log: (l) => logged.push(l) });
    sessions.addHooks(system.trigger);
    system.webhooks.create(site.site_id, 'http://receiver.test/hook');
    system.views.create(site.site_id, { name: 'All', filter: 'page_views >= 1', trigger_webhooks: true });
    try {
      sessions.recordPageView(site, { url: 'https://example.com/', ip: '192.0.2.1', user_agent: null, referrer: null, language: null, timezone: null }, { newSession: true });
      await waitUntil(() => calls.length === 1);
      const id = calls[0].headers['webhook-id'];
      store.db.pragma('query_only = ON');
      calls[0].resolve({ ok: false, status_code: 500, error: null });
      await waitUntil(() => store.faults.current() !== null);
      await new Promise((r) => setTimeout(r, 50));
      store.db.pragma('query_only = OFF');
      const ev = store.webhookEvents.get(id)!;
      expect(ev.status).not.toBe('failed');
      expect(store.webhookEvents.lastAttemptNumber(id)).toBe(0);
      expect(logged.filter((l) => /readonly|read-only/i.test(l))).toEqual([]);
      // Writes work again (the emulator's probe write and kick do this on their own).
      store.probeWrite();
      expect(store.faults.current()).toBeNull();
      system.dispatcher.kick();
      await waitUntil(() => calls.length === 2);
      expect(calls[1].headers['webhook-id']).toBe(id);
      calls[1].resolve({ ok: true, status_code: 200, error: null });
      await waitUntil(() => store.webhookEvents.get(id)!.status === 'delivered');
      expect(store.webhookEvents.lastAttemptNumber(id)).toBe(1);
    } finally {
      await system.close();
      store.close();
    }
  });
});
