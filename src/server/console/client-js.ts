// Browser code shared by every console page (plain ES2020, no build step). Pages call:
//   vtrLive(types, fn)          fn(type, data) for each event of the SSE stream (/_vtr/api/stream)
//   vtrRow(url, rowId, bodyId)  fetch a server-rendered <tr> and replace or prepend it (204: remove)
//   vtrRefresh(id)              re-fetch this page and swap the element with that id
// Markup hooks: <button data-copy="text">, <form data-confirm="question">.
import type { EmulatorEvent } from '../../events/bus.js';

/**
 * Every event type of the stream. EventSource listens by exact name, so vtrLive expands a prefix
 * such as 'webhook_event.' to the names here (the server filters by the same prefix).
 */
const STREAM_TYPES = [
  'session.created', 'session.updated', 'check.created', 'webhook_event.created', 'webhook_event.updated',
  'webhook_attempt.started', 'webhook_attempt.created', 'webhook.created', 'webhook.updated', 'webhook.deleted',
  'notification.created', 'request.logged', 'clock.changed', 'site.created', 'site.updated', 'site.deleted',
  'access_token.created', 'access_token.revoked', 'saved_view.created', 'saved_view.updated', 'saved_view.deleted', 'rule.created', 'rule.updated', 'rule.deleted', 'state.replaced',
] as const satisfies ReadonlyArray<EmulatorEvent['type']>;
/** Does not compile when the bus gains an event type missing above. */
type Complete<T extends never> = T;
export type StreamTypesComplete = Complete<Exclude<EmulatorEvent['type'], (typeof STREAM_TYPES)[number]>>;

export const CONSOLE_JS = `
(function () {
  'use strict';
  var liveEl = document.getElementById('live');
  var STREAM_TYPES = ${JSON.stringify(STREAM_TYPES)};
  function announce(msg) {
    var a = document.getElementById('announce');
    a.textContent = '';
    setTimeout(function () { a.textContent = msg; }, 50);
  }
  window.vtrAnnounce = announce;

  function copyFallback(text) {
    var t = document.createElement('textarea');
    t.value = text; t.setAttribute('readonly', ''); t.style.position = 'fixed'; t.style.opacity = '0';
    document.body.appendChild(t); t.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    t.remove();
    return ok;
  }
  document.addEventListener('click', function (e) {
    var b = e.target.closest && e.target.closest('button[data-copy]');
    if (!b) return;
    var text = b.getAttribute('data-copy');
    var label = b.textContent;
    function done(ok) {
      b.textContent = ok ? 'Copied' : 'Copy failed';
      announce(ok ? 'Copied to the clipboard' : 'Could not copy');
      setTimeout(function () { b.textContent = label; }, 1500);
    }
    // The clipboard API needs a secure context (https or localhost); else the old way.
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(copyFallback(text)); });
    } else done(copyFallback(text));
  });
  document.addEventListener('submit', function (e) {
    var q = e.target.getAttribute('data-confirm');
    if (q && !window.confirm(q)) e.preventDefault();
  });

  window.vtrLive = function (types, fn) {
    liveEl.hidden = false;
    var es = new EventSource('/_vtr/api/stream?types=' + encodeURIComponent(types.join(',')));
    es.onopen = function () { liveEl.classList.add('on'); liveEl.textContent = 'live'; };
    es.onerror = function () { liveEl.classList.remove('on'); liveEl.textContent = 'reconnecting…'; };
    var names = [];
    types.forEach(function (t) {
      var hit = STREAM_TYPES.filter(function (n) { return n.indexOf(t) === 0; });
      (hit.length ? hit : [t]).forEach(function (n) { if (names.indexOf(n) < 0) names.push(n); });
    });
    names.forEach(function (type) {
      es.addEventListener(type, function (ev) {
        var data;
        try { data = JSON.parse(ev.data); } catch (e) { return; }
        fn(type, data);
      });
    });
    return es;
  };

  var inflight = 0;
  var latest = {};
  var mayAdd = {};
  window.vtrRow = function (url, rowId, bodyId, opts) {
    var body = document.getElementById(bodyId);
    if (!body) return;
    // A burst waits its turn rather than being dropped (the last update of a row must land).
    if (inflight > 8) { setTimeout(function () { window.vtrRow(url, rowId, bodyId, opts); }, 250); return; }
    inflight++;
    // Answers can arrive out of order: only the newest request for a row may touch it, and it
    // inherits the right to add the row from any request it superseded (e.g. "created").
    if (!(opts && opts.onlyReplace)) mayAdd[rowId] = true;
    var mine = latest[rowId] = (latest[rowId] || 0) + 1;
    fetch(url, { headers: { accept: 'text/html' } }).then(function (r) {
      if (latest[rowId] !== mine) return;
      var old = document.getElementById(rowId);
      if (r.status === 204) { delete mayAdd[rowId]; if (old) old.remove(); return; }
      if (!r.ok) return;
      return r.text().then(function (markup) {
        if (latest[rowId] !== mine) return;
        var add = mayAdd[rowId];
        delete mayAdd[rowId];
        var t = document.createElement('tbody');
        t.innerHTML = markup;
        var row = t.firstElementChild;
        if (!row) return;
        old = document.getElementById(rowId);
        if (old) { old.replaceWith(row); return; }
        if (!add) return;
        body.prepend(row);
        row.classList.add('new');
        var empty = document.getElementById(bodyId + '-empty');
        if (empty) empty.remove();
        announce(row.getAttribute('data-announce') || 'New row');
        while (body.rows.length > ((opts && opts.max) || 200)) body.deleteRow(-1);
      });
    }).catch(function () {}).finally(function () { inflight--; });
  };

  var pending = {};
  window.vtrRefresh = function (id) {
    if (pending[id]) return;
    pending[id] = setTimeout(function () {
      fetch(location.href, { headers: { accept: 'text/html' } }).then(function (r) { return r.ok ? r.text() : null; }).then(function (text) {
        pending[id] = null;
        if (!text) return;
        var fresh = new DOMParser().parseFromString(text, 'text/html').getElementById(id);
        var old = document.getElementById(id);
        if (!fresh || !old) return;
        // Keep keyboard focus on the same control (by id) across the swap.
        var focused = document.activeElement && old.contains(document.activeElement) ? document.activeElement.id : '';
        old.replaceWith(fresh);
        var again = focused && document.getElementById(focused);
        if (again && !again.disabled) again.focus();
      }).catch(function () { pending[id] = null; });
    }, 200);
  };
})();
`;
