// The client-side agent served at GET /agent.js. Plain ES5, no dependencies, everything inside one
// function: the only global it sets is `window.vtr`, and nothing it does can throw into the page.
// It posts with Content-Type text/plain (a CORS "simple" request: no preflight round trip).

export const AGENT_VERSION = '1';

export const AGENT_JS = `/* vtr agent ${AGENT_VERSION}: page views, probe ids, form probe_id, custom events */
(function () {
  'use strict';
  var w = window, d = document;
  try {
    if (w.vtr && w.vtr.version) return; /* loaded twice */
    var me = d.currentScript;
    if (!me) {
      var all = d.getElementsByTagName('script');
      for (var i = 0; i < all.length; i++) if (/\\/agent\\.js(\\?|#|$)/.test(all[i].src)) me = all[i];
    }
    var src = me && me.src ? me.src : '';
    /* The emulator's base URL is wherever this script came from. */
    var base = src.replace(/\\/agent\\.js([?#].*)?$/, '');
    var siteKey = me && me.getAttribute('data-site-key');
    /* Without data-site-key on the script tag, a form's data-vtr-site-key names the site. */
    var keyFromForm = function () {
      var marked = d.querySelector('[data-vtr-site-key]');
      return marked ? marked.getAttribute('data-vtr-site-key') : null;
    };
    var memory = {};
    var state = { probe: null, session: null, done: false, waiters: [], lastPing: 0, waited: [] };

    var warn = function (m) { try { if (w.console) w.console.warn('vtr: ' + m); } catch (e) {} };
    var get = function (k) { try { return w.localStorage.getItem(k); } catch (e) { return memory[k] || null; } };
    var set = function (k, v) { try { w.localStorage.setItem(k, v); } catch (e) { memory[k] = v; } };

    var post = function (path, body) {
      body.site_key = siteKey;
      return w.fetch(base + path, {
        method: 'POST', mode: 'cors', credentials: 'omit', keepalive: true,
        headers: { 'Content-Type': 'text/plain;charset=UTF-8' }, body: JSON.stringify(body)
      }).then(function (r) {
        return r.json().then(function (j) {
          if (!r.ok) throw new Error((j && j.message) || ('HTTP ' + r.status));
          return j;
        });
      });
    };

    var settle = function () {
      state.done = true;
      var ws = state.waiters; state.waiters = [];
      for (var i = 0; i < ws.length; i++) ws[i]();
    };
    /* Resolves with the probe id (or null) once the page view answered, or after ms. */
    var whenProbe = function (ms) {
      if (state.probe || state.done) return Promise.resolve(state.probe);
      return new Promise(function (res) {
        var t = setTimeout(function () { res(state.probe); }, ms);
        state.waiters.push(function () { clearTimeout(t); res(state.probe); });
      });
    };

    var markedForms = function () {
      var out = [], els = d.querySelectorAll('[data-vtr-site-key]');
      for (var i = 0; i < els.length; i++) {
        var f = els[i].tagName === 'FORM' ? els[i] : (els[i].closest ? els[i].closest('form') : els[i].form);
        if (f && out.indexOf(f) < 0) out.push(f);
      }
      return out;
    };
    var fill = function (f) {
      if (!state.probe) return;
      var input = f.querySelector('input[name="probe_id"]');
      if (!input) {
        input = d.createElement('input');
        input.type = 'hidden'; input.name = 'probe_id';
        f.appendChild(input);
      }
      input.value = state.probe;
    };
    var fillForms = function () { try { var fs = markedForms(); for (var i = 0; i < fs.length; i++) fill(fs[i]); } catch (e) {} };

    var pageview = function () {
      if (!siteKey) { warn('no site key: add data-site-key="pk_test_..." to the agent script tag'); settle(); return Promise.resolve(null); }
      var tz = null;
      try { tz = Intl.DateTimeFormat().resolvedOptions().timeZone || null; } catch (e) {}
      var scr = w.screen ? w.screen.width + 'x' + w.screen.height : null;
      return post('/_vtr/agent/pageview', {
        url: w.location.href, referrer: d.referrer || null, language: w.navigator.language || null,
        timezone: tz, screen: scr, user_agent: w.navigator.userAgent, fingerprint: get('vtr_fp')
      }).then(function (r) {
        state.probe = r.probe_id; state.session = r.session_id;
        if (r.fingerprint) set('vtr_fp', r.fingerprint);
        fillForms(); settle();
        return r;
      }, function (e) { warn('page view not recorded: ' + e.message); settle(); return null; });
    };

    /* Time on page: the session's duration grows while the visitor stays. */
    var ping = function () {
      var now = Date.now();
      if (!state.session || now - state.lastPing < 1000) return;
      state.lastPing = now;
      post('/_vtr/agent/ping', { session_id: state.session, probe_id: state.probe, url: w.location.href, fingerprint: get('vtr_fp') })
        .then(null, function () {});
    };

    var event = function (name, opts) {
      return whenProbe(10000).then(function () {
        if (!state.session) throw new Error('no session yet (the page view was not recorded)');
        var body = { session_id: state.session, probe_id: state.probe, name: String(name) };
        if (opts && typeof opts.value === 'number') body.value = opts.value;
        return post('/_vtr/agent/event', body);
      }).then(null, function (e) { warn('event not recorded: ' + e.message); return { success: false, message: e.message }; });
    };

    /* Capture on window runs before the page's own submit handlers. Without a probe yet, hold the
       submit (page handlers included), wait up to 3 s, then submit again with the probe filled. */
    w.addEventListener('submit', function (ev) {
      try {
        var f = ev.target;
        if (!f || f.tagName !== 'FORM' || markedForms().indexOf(f) < 0) return;
        var wi = state.waited.indexOf(f);
        if (state.probe || wi >= 0) { if (wi >= 0) state.waited.splice(wi, 1); fill(f); return; }
        ev.preventDefault(); ev.stopImmediatePropagation();
        var submitter = ev.submitter || null;
        whenProbe(3000).then(function () {
          fill(f); state.waited.push(f);
          if (f.requestSubmit) f.requestSubmit(submitter && submitter.form === f ? submitter : undefined); else f.submit();
        });
      } catch (e) {}
    }, true);
    d.addEventListener('DOMContentLoaded', fillForms);
    d.addEventListener('visibilitychange', function () { if (d.visibilityState === 'hidden') ping(); });
    w.addEventListener('pagehide', ping);
    setTimeout(ping, 15000);
    setTimeout(ping, 65000);

    w.vtr = {
      version: '${AGENT_VERSION}',
      /** Adds a custom event to the current session; resolves {success} (never rejects). */
      event: event,
      /** Records a page view (single-page apps call it after navigating); resolves {probe_id, session_id} or null. */
      pageview: function () { state.probe = null; state.done = false; return pageview(); },
      /** The current probe id, waiting for the page view (up to ms, default 3000). */
      probe: function (ms) { return whenProbe(typeof ms === 'number' ? ms : 3000); },
      probeId: function () { return state.probe; },
      sessionId: function () { return state.session; }
    };
    if (siteKey || d.readyState !== 'loading') { siteKey = siteKey || keyFromForm(); pageview(); }
    else d.addEventListener('DOMContentLoaded', function () { siteKey = keyFromForm(); pageview(); });
  } catch (e) {
    try { if (w.console) w.console.warn('vtr: agent disabled: ' + e); } catch (e2) {}
  }
})();
`;
