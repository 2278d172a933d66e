// Follows the management API's event stream (`/_vtr/api/stream`) across emulator restarts:
// reconnects with backoff and reports the connection's state through onStatus.
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, ConnectionError } from './api-client.js';
import { eventStream } from './sse.js';

export interface FollowOptions {
  /** http://host:port */
  origin: string;
  adminToken?: string | null;
  /** Event type prefixes (`?types=`); empty for everything. */
  types?: string[];
  signal?: AbortSignal;
  onEvent(e: { type: string; data: unknown; id?: string }): void;
  /** Once, when the server has subscribed this stream: events from then on are not missed. */
  onReady?(): void;
  /** 'connected' after a reconnection; 'disconnected' with what happened and when it tries again (`retryInMs`). */
  onStatus?(status: 'connected' | 'disconnected', detail: string, retryInMs?: number): void;
}

const MAX_BACKOFF_MS = 10_000;

/**
 * Runs until `signal` aborts. Throws what reconnecting cannot fix (401/404), and the first
 * connection's failure: a server that was never there is a mistake to report, not a restart to wait out.
 */
export async function streamEvents(o: FollowOptions): Promise<void> {
  const url = `${o.origin}/_vtr/api/stream${o.types?.length ? `?types=${encodeURIComponent(o.types.join(','))}` : ''}`;
  let backoff = 500;
  let lost = false;
  let connected = false;
  while (!o.signal?.aborted) {
    try {
      for await (const ev of eventStream({ url, adminToken: o.adminToken, signal: o.signal })) {
        if (ev.event === 'ready') {
          if (!connected) o.onReady?.();
          connected = true;
          if (lost) o.onStatus?.('connected', `reconnected to ${o.origin}`);
          lost = false;
          backoff = 500;
          continue;
        }
        let data: unknown = ev.data;
        try {
          data = JSON.parse(ev.data);
        } catch {
          // not JSON: passed on as text
        }
        o.onEvent({ type: ev.event, data, id: ev.id });
      }
    } catch (err) {
      if (err instanceof ApiError && (err.status === 401 || err.status === 404)) throw err;
      if (!connected && !o.signal?.aborted) throw err;
    }
    if (o.signal?.aborted) break;
    if (!connected) throw new ConnectionError(o.origin);
    lost = true;
    o.onStatus?.('disconnected', `lost the emulator at ${o.origin}; reconnecting in ${backoff / 1000}s…`, backoff);
    await sleep(backoff, undefined, { signal: o.signal }).catch(() => undefined);
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  }
}
