// vtrLive: a console page's events from the stream (/_vtr/api/stream), and the live indicator.
// Every console tab of this origin shares one stream through a SharedWorker (console-stream-worker.ts):
// a stream per tab would hold one of the browser's 6 connections to the host each, and a 7th tab
// would never load. Without SharedWorker (some mobile browsers), or if it fails to start, each
// call opens its own EventSource, as one tab alone can afford.
import { STREAM_TYPES, type StreamState, type ToTab } from './stream-types.js';

type Handler = (type: string, data: any) => void;
interface Sub { names: string[]; fn: Handler }

const liveEl = document.getElementById('live')!;
const subs: Sub[] = [];
let port: MessagePort | null = null;
let direct = false;

const SAID: Record<StreamState, string> = { connecting: 'connecting…', open: 'live', reconnecting: 'reconnecting…', closed: 'not live: reload the page' };
function show(s: StreamState): void {
  liveEl.classList.toggle('on', s === 'open');
  liveEl.textContent = SAID[s];
}

function deliver(sub: Sub, type: string, raw: string): void {
  let data: unknown;
  try { data = JSON.parse(raw); } catch (e) { return; }
  sub.fn(type, data);
}

/** Today's way, one EventSource for one call. */
function openDirect(sub: Sub): void {
  const es = new EventSource('/_vtr/api/stream?types=' + encodeURIComponent(sub.names.join(',')));
  es.onopen = () => show('open');
  // CLOSED: the stream was refused (an admin token changed by a restart), so it never comes back by itself.
  es.onerror = () => show(es.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting');
  sub.names.forEach((type) => es.addEventListener(type, (ev) => deliver(sub, type, (ev as MessageEvent<string>).data)));
}

function register(): void {
  const names: string[] = [];
  subs.forEach((s) => s.names.forEach((n) => { if (names.indexOf(n) < 0) names.push(n); }));
  if (port) port.postMessage({ names });
}

function connect(): MessagePort | null {
  const url = liveEl.getAttribute('data-worker');
  if (typeof SharedWorker === 'undefined' || !url) return null;
  let worker: SharedWorker;
  try { worker = new SharedWorker(url, { name: 'vtr console stream' }); } catch (e) { return null; }
  // The worker did not start (its script refused or missing): this tab streams on its own.
  worker.onerror = () => {
    if (direct) return;
    direct = true; port = null;
    subs.forEach(openDirect);
  };
  worker.port.onmessage = (m: MessageEvent<ToTab>) => {
    const d = m.data;
    if ('state' in d) { show(d.state); return; }
    subs.forEach((s) => { if (s.names.indexOf(d.type) >= 0) deliver(s, d.type, d.data); });
  };
  // A tab going away (or into the back/forward cache) stops asking; one coming back asks again.
  addEventListener('pagehide', () => { if (port) port.postMessage({ names: [] }); });
  addEventListener('pageshow', (e) => { if (e.persisted) register(); });
  return worker.port;
}

export function live(types: string[], fn: Handler): void {
  liveEl.hidden = false;
  // EventSource listens by exact name: a prefix such as 'webhook_event.' stands for the names it starts.
  const names: string[] = [];
  types.forEach((t) => {
    const hit: string[] = STREAM_TYPES.filter((n) => n.indexOf(t) === 0);
    (hit.length ? hit : [t]).forEach((n) => { if (names.indexOf(n) < 0) names.push(n); });
  });
  const sub = { names, fn };
  subs.push(sub);
  if (direct) { openDirect(sub); return; }
  if (!port) port = connect();
  if (port) register();
  else { direct = true; openDirect(sub); }
}
