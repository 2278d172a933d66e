// The console's one event stream, shared by every console tab of this origin (a SharedWorker). A
// browser opens at most 6 HTTP/1.1 connections to one host: a stream per tab would leave a 7th tab,
// and every fetch of the open ones, waiting for a connection that never frees.
// A tab's port sends { names } (the exact event types it wants; [] when the tab goes away) and
// receives { state } (connecting, open, reconnecting, closed) and { type, data } (data as sent).
import { STREAM_TYPES, type StreamState, type ToTab } from './stream-types.js';

declare const self: SharedWorkerGlobalScope;

const wants = new Map<MessagePort, string[]>();
let es: EventSource | null = null;
let key = '';
let state: StreamState = 'connecting';

function send(port: MessagePort, m: ToTab): void { port.postMessage(m); }
function setState(s: StreamState): void {
  state = s;
  wants.forEach((_names, port) => send(port, { state }));
}

/** The stream for what the tabs want now: reopened when that changes, or after it was refused. */
function sync(): void {
  const names = STREAM_TYPES.filter((t) => Array.from(wants.values()).some((n) => n.indexOf(t) >= 0));
  const next = names.join(',');
  if (!next) { if (es) es.close(); es = null; key = ''; return; }
  if (es && next === key && es.readyState !== EventSource.CLOSED) return;
  // The old stream keeps delivering until the new one is subscribed (its first event is "ready"),
  // so no event falls between the two.
  const old = es;
  const retire = () => { if (old && old !== es) old.close(); };
  const s = new EventSource('/_vtr/api/stream?types=' + encodeURIComponent(next));
  es = s; key = next;
  if (!old || old.readyState !== EventSource.OPEN) setState('connecting');
  s.addEventListener('ready', retire);
  s.onopen = () => { if (s === es) setState('open'); };
  s.onerror = () => {
    if (s !== es) return;
    // CLOSED: the stream was refused (an admin token changed by a restart); it never comes back by itself.
    if (s.readyState === EventSource.CLOSED) retire();
    setState(s.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting');
  };
  names.forEach((type) => {
    s.addEventListener(type, (ev) => {
      const data = (ev as MessageEvent<string>).data;
      wants.forEach((n, port) => { if (n.indexOf(type) >= 0) send(port, { type, data }); });
    });
  });
}

self.onconnect = (e) => {
  const port = e.ports[0];
  port.onmessage = (m: MessageEvent<{ names: string[] }>) => {
    const names = m.data.names.filter((n) => (STREAM_TYPES as readonly string[]).indexOf(n) >= 0);
    if (names.length) wants.set(port, names); else wants.delete(port);
    sync();
    if (names.length) send(port, { state });
  };
};
