// The client-side agent served at GET /agent.js: page views (a single-page app's navigations
// included), probe ids in marked forms, custom events. No dependencies, everything inside one
// function: the only global it sets is `window.vtr`, and nothing it does can throw into the page.
// The build inlines its agent-*.ts modules into the one served script.

import { recall, remember } from './agent-storage.js';
import { cut, send, warn } from './agent-transport.js';
import { fill, keyFromForm, markedForms } from './agent-forms.js';
import { page, watchNavigations } from './agent-spa.js';

const AGENT_VERSION = '1';

interface PageViewAnswer {
  probe_id: string;
  session_id: string;
  fingerprint?: string;
}

(function () {
  const w = window, d = document;
  // Calls the page made before the agent loaded, through the stub docs/agent.md gives: [method, arguments, resolve].
  let early: NonNullable<VtrAgent['q']> = [];
  try {
    let me = d.currentScript as HTMLScriptElement | null;
    if (!me) {
      const all = d.getElementsByTagName('script');
      for (let i = 0; i < all.length; i++) if (/\/agent\.js(\?|#|$)/.test(all[i].src)) me = all[i];
    }
    const src = me && me.src ? me.src : '';
    // The emulator's base URL is wherever this script came from.
    const base = src.replace(/\/agent\.js([?#].*)?$/, '');
    let siteKey = me && me.getAttribute('data-site-key');
    // Loaded twice, the first copy goes on alone (one session); this one hands it the key it lacked.
    if (w.vtr && w.vtr.version) { if (siteKey && w.vtr.key) w.vtr.key(siteKey); return; }
    early = (w.vtr && w.vtr.q) || [];
    const state = {
      probe: null as string | null,
      session: null as string | null,
      done: false,
      waiters: [] as Array<() => void>,
      lastPing: 0,
      waited: [] as HTMLFormElement[],
      // Page views go one at a time (see queuePageview); seq numbers the latest one asked for.
      queue: Promise.resolve() as Promise<unknown>,
      seq: 0,
      renewing: null as Promise<PageViewAnswer | null> | null,
    };
    // The page (see page()) and address of the latest page view asked for, and that page view's
    // answer while it was the agent's own (a navigation), for the app's vtr.pageview() to share.
    let lastPage: string | undefined, lastHref: string | undefined, auto: Promise<PageViewAnswer | null> | null | undefined;
    const post = <T>(path: string, body: Record<string, unknown>): Promise<T> => {
      body.site_key = siteKey;
      return send<T>(base + path, body);
    };

    const settle = () => {
      state.done = true;
      const ws = state.waiters; state.waiters = [];
      for (let i = 0; i < ws.length; i++) ws[i]();
    };
    // Resolves with the probe id (or null) once the page view answered, or after ms.
    const whenProbe = (ms: number): Promise<string | null> => {
      if (state.probe || state.done) return Promise.resolve(state.probe);
      return new Promise((res) => {
        const t = setTimeout(() => { res(state.probe); }, ms);
        state.waiters.push(() => { clearTimeout(t); res(state.probe); });
      });
    };

    const fillForms = () => { try { const fs = markedForms(); for (let i = 0; i < fs.length; i++) fill(fs[i], state.probe); } catch (e) {} };

    const pageview = (url: string, seq: number, prev: string | null, ref: string | null): Promise<PageViewAnswer | null> => {
      // Only the latest page view asked for settles the waiters (probe(), held forms, event()).
      const last = () => seq === state.seq;
      if (!siteKey) { warn('no site key: add data-site-key="pk_test_..." to the agent script tag'); if (last()) settle(); return Promise.resolve(null); }
      let tz: string | null = null;
      try { tz = Intl.DateTimeFormat().resolvedOptions().timeZone || null; } catch (e) {}
      const scr = w.screen ? w.screen.width + 'x' + w.screen.height : null;
      return post<PageViewAnswer>('/_vtr/agent/pageview', {
        url: cut(url), referrer: cut(ref), language: w.navigator.language || null,
        timezone: tz, screen: scr, user_agent: w.navigator.userAgent, fingerprint: recall('vtr_fp'),
      }).then((r) => {
        state.probe = r.probe_id; state.session = r.session_id;
        if (r.fingerprint) remember('vtr_fp', r.fingerprint);
        fillForms(); if (last()) settle();
        return r;
      }, (e: Error) => {
        // The session goes on: its earlier probe still proves it for events and pings.
        if (!state.probe) state.probe = prev;
        warn('page view not recorded: ' + e.message); if (last()) settle(); return null;
      });
    };
    // One at a time: a page view asked for while another is on its way (a single-page app navigating
    // at once) waits for its answer, so it carries the fingerprint that answer assigned (one visitor,
    // one session) and reaches the emulator in order. The URL is the one at the time of asking; the
    // referrer, the previous page view's (another page of this one), as analytics count it.
    const queuePageview = (prev: string | null): Promise<PageViewAnswer | null> => {
      const url = w.location.href, seq = ++state.seq, before = state.queue;
      const ref = lastHref && lastPage !== page(url) ? lastHref : d.referrer || null;
      lastPage = page(url); lastHref = url; auto = null;
      // An answer that never comes (an emulator paused in a debugger) holds the next one 5 s at most.
      const turn = new Promise((res) => { before.then(res); setTimeout(res, 5000); });
      const run = turn.then(() => pageview(url, seq, prev, ref));
      state.queue = run.then(null, () => {});
      return run;
    };

    const again = () => { const prev = state.probe; state.probe = null; state.done = false; return queuePageview(prev); };

    // Time on page: the session's duration grows while the visitor stays.
    const ping = () => {
      const now = Date.now();
      if (!state.session || now - state.lastPing < 1000) return;
      state.lastPing = now;
      post('/_vtr/agent/ping', { session_id: state.session, probe_id: state.probe, url: cut(w.location.href), fingerprint: recall('vtr_fp') })
        .then(null, () => {});
    };

    // The page stayed open past the end of its session: record this page again, which starts or
    // joins the visitor's current session (one page view for events sent together).
    const renew = (): Promise<PageViewAnswer | null> => {
      if (!state.renewing) {
        state.probe = null; state.done = false;
        state.renewing = queuePageview(null).then((r) => { state.renewing = null; return r; });
      }
      return state.renewing;
    };

    const event = (name: string, opts?: { value?: number }) => whenProbe(10000).then(() => {
      if (!state.session) throw new Error('no session yet (the page view was not recorded)');
      // An unset variable would otherwise be recorded as the event "undefined" (or "null").
      if (typeof name !== 'string') throw new Error("name must be a string, e.g. vtr.event('signup')");
      const body: Record<string, unknown> = { name };
      // A value that is not a finite number would reach the server as null (NaN) or not at all: say so.
      // vtr.event('purchase', 49) would otherwise be recorded without its value.
      if (opts != null && typeof opts !== 'object') throw new Error('the value goes in an object: { value: 49 }');
      const value = opts ? opts.value : undefined;
      if (value !== undefined && value !== null && (typeof value !== 'number' || !isFinite(value))) throw new Error('value must be a finite number, e.g. { value: 49 }');
      if (typeof value === 'number') body.value = value;
      const send = () => { body.session_id = state.session; body.probe_id = state.probe; return post<{ success: boolean }>('/_vtr/agent/event', body); };
      const sent = state.session;
      return send().then(null, (e: Error & { code?: string }) => {
        if (e.code !== 'session_expired') throw e;
        return (state.session === sent ? renew() : state.renewing || Promise.resolve(null)).then(() => {
          if (!state.session || state.session === sent) throw new Error('the session has ended and no new page view was recorded');
          return send();
        });
      });
    }).then(null, (e: Error) => { warn('event not recorded: ' + e.message); return { success: false, message: e.message }; });

    // Capture on window runs before the page's own submit handlers. Without a probe yet, hold the
    // submit (page handlers included), wait up to 3 s, then submit again with the probe filled.
    w.addEventListener('submit', (ev: SubmitEvent) => {
      try {
        const f = ev.target as HTMLFormElement | null;
        if (!f || f.tagName !== 'FORM' || markedForms().indexOf(f) < 0) return;
        const wi = state.waited.indexOf(f);
        // A page view that was refused (unknown site key, server fault) has no probe to wait for.
        if (state.probe || state.done || wi >= 0) { if (wi >= 0) state.waited.splice(wi, 1); fill(f, state.probe); return; }
        ev.preventDefault(); ev.stopImmediatePropagation();
        const submitter = (ev.submitter || null) as HTMLButtonElement | null;
        whenProbe(3000).then(() => {
          fill(f, state.probe); state.waited.push(f);
          // In a later task: the browser ignores requestSubmit while this submit event is still being dispatched.
          setTimeout(() => {
            if (f.requestSubmit) f.requestSubmit(submitter && submitter.form === f ? submitter : undefined); else f.submit();
          }, 0);
        });
      } catch (e) {}
    }, true);
    d.addEventListener('DOMContentLoaded', fillForms);
    d.addEventListener('visibilitychange', () => { if (d.visibilityState === 'hidden') ping(); });
    w.addEventListener('pagehide', ping);
    // Back/forward to a page the browser kept (the back/forward cache): the visitor sees it again,
    // a page view as when the browser reloads it instead, with a new probe in the forms.
    w.addEventListener('pageshow', (ev: PageTransitionEvent) => { try { if (ev.persisted && started) again(); } catch (e) {} });
    setTimeout(ping, 15000);
    setTimeout(ping, 65000);

    w.vtr = {
      version: AGENT_VERSION,
      /** Adds a custom event to the current session; resolves {success} (never rejects). */
      event,
      /** Records a page view (navigations record theirs already); resolves {probe_id, session_id, fingerprint} or null. */
      pageview: () => {
        // Right after a navigation the agent recorded, the app's own call is that page view.
        const a = auto; auto = null;
        return a && lastPage === page(w.location.href) ? a : again();
      },
      /** The current probe id, waiting for the page view (up to ms, default 3000). */
      probe: (ms?: number) => whenProbe(typeof ms === 'number' ? ms : 3000),
      probeId: () => state.probe,
      sessionId: () => state.session,
    };
    let started: Promise<PageViewAnswer | null> | undefined;
    const start = () => { if (!started) { siteKey = siteKey || keyFromForm(); started = queuePageview(null); } };
    // From a later copy of the agent: this one's page view had no key (or waits for the DOM).
    w.vtr.key = (k: string) => { if (!siteKey) { siteKey = k; if (started) again(); else start(); } };
    // A single-page app's navigations are page views unless the tag says data-auto-pageviews="off".
    try {
      if (!me || me.getAttribute('data-auto-pageviews') !== 'off') {
        watchNavigations(
          () => { try { if (started && page(w.location.href) !== lastPage) auto = again(); } catch (e) {} },
          () => { lastHref = w.location.href; lastPage = page(lastHref); },
        );
      }
    } catch (e) {}
    if (siteKey || d.readyState !== 'loading') start();
    else d.addEventListener('DOMContentLoaded', start);
    // Each answered as if the agent had been there (event waits for the page view started above);
    // a page view asked for before is the one just started, not a second of the same page.
    for (let i = 0; i < early.length; i++) {
      const c = early[i], f = w.vtr[c[0] as 'event'] as (...a: unknown[]) => unknown;
      const r = c[0] === 'pageview' && started ? started : f ? f.apply(null, c[1] as unknown[]) : undefined;
      if (c[2]) c[2](r);
      c[2] = undefined;
    }
  } catch (e) {
    try {
      if (w.console) w.console.warn('vtr: agent disabled: ' + e);
      // Calls queued by the stub, and any it takes later, settle as the docs say rather than hang.
      const no = (c: (typeof early)[number]) => { if (c[2]) c[2](c[0] === 'event' ? { success: false, message: 'the agent is disabled: ' + e } : null); return 0; };
      const q = (w.vtr && w.vtr.q) || early;
      for (let i = 0; i < q.length; i++) no(q[i]);
      q.push = no;
    } catch (e2) {}
  }
})();
