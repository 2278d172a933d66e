// The saved-view trigger over a real (in-memory) store: which session changes create webhook events.
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/domain/clock.js';
import { createEventBus } from '../../src/events/bus.js';
import { createStore } from '../../src/store/index.js';
import { createSiteService } from '../../src/sites/service.js';
import { createSessionService } from '../../src/sessions/service.js';
import { createWebhookSystem, type WebhookSystem } from '../../src/webhooks/index.js';
import { createSessionsFromSpec } from '../../src/sessions/create.js';
import type { SendResult } from '../../src/webhooks/sender.js';

const systems: WebhookSystem[] = [];
afterEach(async () => {
  for (const s of systems.splice(0)) await s.close();
});

function setup(filter: string) {
  const clock = createClock('manual', 0, () => Date.UTC(2026, 10, 21, 9, 0, 0));
  const store = createStore({ path: ':memory:' });
  const bus = createEventBus();
  const published: string[] = [];
  bus.subscribe((e) => published.push(e.type));
  const sites = createSiteService({ store, clock });
  const site = sites.bootstrap()!.site;
  const sessions = createSessionService({ store, clock, bus });
  // Every delivery succeeds at once: only which events get created matters here.
  const send = async (): Promise<SendResult> => ({ ok: true, status_code: 200, error: null });
  const system = createWebhookSystem({ store, clock, bus, send, log: () => {} });
  systems.push(system);
  sessions.addHooks(system.trigger);
  system.webhooks.create(site.site_id, 'http://receiver.test/hook');
  system.views.create(site.site_id, { name: 'View', filter, trigger_webhooks: true });
  const pv = { url: 'https://example.com/', ip: '192.0.2.1', user_agent: null, referrer: null, language: null, timezone: null };
  const session = sessions.recordPageView(site, pv, { newSession: true }).session;
  const events = () => store.webhookEvents.list({ sessionId: session.session_id });
  const pageView = () => sessions.recordPageView(site, pv, { sessionId: session.session_id });
  return { site, sessions, session, events, pageView, clock, store, published, system };
}

describe('saved-view trigger', () => {
  it('trigger: a custom event alone never creates a webhook event, even for a view on custom_events', () => {
    const t = setup('custom_events contains ping');
    t.sessions.addCustomEvent(t.session.session_id, t.site.site_id, 'ping');
    t.sessions.addCustomEvent(t.session.session_id, t.site.site_id, 'ping', 5);
    expect(t.events()).toHaveLength(0);
    // The session's next other change evaluates the view: first match, one event.
    t.pageView();
    expect(t.events()).toHaveLength(1);
    expect(t.events()[0].saved_view_name).toBe('View');
  });

  it('trigger: events given to sessions create are part of the creation, so views see them', () => {
    const t = setup('custom_events contains ping');
    const made = createSessionsFromSpec({ clock: t.clock, sessions: t.sessions }, t.site, { custom_events: ['ping'] });
    expect(t.store.webhookEvents.list({ sessionId: made.session_id })).toHaveLength(1);
  });

  it('trigger: a custom event that changes a derived field (conversion) is evaluated', () => {
    const t = setup('engagement_level = converted');
    t.sessions.addCustomEvent(t.session.session_id, t.site.site_id, 'conversion');
    expect(t.events()).toHaveLength(1);
  });

  it('trigger: an event made by an earlier change of a batch is announced, even when a later change makes none', () => {
    const t = setup('page_views >= 2');
    t.published.length = 0;
    t.sessions.batch(() => {
      t.pageView(); // matches: one event
      t.sessions.addCustomEvent(t.session.session_id, t.site.site_id, 'ping'); // evaluates nothing
    });
    expect(t.events()).toHaveLength(1);
    expect(t.published).toContain('webhook_event.created');
  });

  it('trigger: an event of a rolled-back change is never announced', () => {
    const t = setup('page_views >= 2');
    let boom = true;
    // A hook after the trigger fails: the change, and the event the trigger wrote, roll back.
    t.sessions.addHooks({ inTransaction: () => { if (boom) throw new Error('boom'); } });
    expect(() => t.pageView()).toThrow('boom');
    boom = false;
    t.published.length = 0;
    t.sessions.addCustomEvent(t.session.session_id, t.site.site_id, 'ping');
    expect(t.events()).toHaveLength(0);
    expect(t.published).not.toContain('webhook_event.created');
  });

  it('trigger: a page view that makes the session match creates one event, once', () => {
    const t = setup('page_views >= 2');
    expect(t.events()).toHaveLength(0);
    t.pageView();
    t.pageView();
    expect(t.events()).toHaveLength(1);
  });

  it('views update: a session matching the changed filter at its next change is a first match, though it matched the old filter', () => {
    const t = setup('page_views >= 1');
    expect(t.events()).toHaveLength(1); // the creation matched the first filter
    const view = t.system.views.list(t.site.site_id)[0];
    t.system.views.update(view.saved_view_id, { filter: 'page_views >= 2' });
    t.pageView();
    expect(t.events()).toHaveLength(2);
    expect(t.events().map((e) => e.saved_view_id)).toEqual([view.saved_view_id, view.saved_view_id]);
    t.pageView(); // still matching the changed filter: matched once already
    expect(t.events()).toHaveLength(2);
  });

  it('views update: a new name, trigger_webhooks or the same filter respaced keeps the view\'s matches (no event again)', () => {
    const t = setup('page_views >= 1');
    const view = t.system.views.list(t.site.site_id)[0];
    t.system.views.update(view.saved_view_id, { name: 'Renamed', filter: view.filter, trigger_webhooks: true });
    // The same filter written otherwise (a one-line form field drops the line breaks) is the same view.
    t.system.views.update(view.saved_view_id, { filter: 'page_views\n  >=  1' });
    t.pageView();
    expect(t.events()).toHaveLength(1);
  });
});
