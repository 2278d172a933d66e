// GET /_vtr/api/stream: server-sent events of everything that happens (the single source for the
// `tail` commands and the console). `?types=a,b` keeps only those event types (prefix match:
// `webhook_` matches every webhook event type).
import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { VtrError } from '../../domain/errors.js';
import { EVENT_TYPES, type EmulatorEvent } from '../../events/bus.js';
import type { AppDeps } from '../deps.js';
import { streamRoute } from '../../api/management/stream.js';
import { mount } from '../mount.js';
import { realTimers } from '../../domain/timers.js';

let nextId = 1;
/** A client this far behind is not reading (a stuck `tail`): it is cut off rather than buffered for. */
const MAX_QUEUED = 10_000;

export function adminStreamRoutes(app: Hono, { bus }: AppDeps): void {
  mount(app, [
    [streamRoute, (c) => {
      const types = (c.req.query('types') ?? '').split(',').map((t) => t.trim()).filter(Boolean);
      const accepts = (type: string) => types.length === 0 || types.some((t) => type.startsWith(t));
      const unknown = types.find((t) => !EVENT_TYPES.some((type) => type.startsWith(t)));
      if (unknown !== undefined) {
        throw new VtrError('invalid_request', `types: no event type starts with "${unknown}"; the types are ${EVENT_TYPES.join(', ')}`, { field: 'types' });
      }
      return streamSSE(c, async (stream) => {
        const queue: EmulatorEvent[] = [];
        let wake: (() => void) | null = null;
        const unsubscribe = bus.subscribe((e) => {
          if (!accepts(e.type) || ended) return;
          if (queue.length >= MAX_QUEUED) {
            queue.length = 0;
            end();
            stream.abort(); // a client that reads again reconnects (the tails do)
            return;
          }
          queue.push(e);
          wake?.();
        }, accepts);
        let ended = false;
        const end = () => {
          ended = true;
          unsubscribe();
          wake?.();
        };
        stream.onAbort(end);
        const offShutdown = bus.onShutdown(end);
        await stream.writeSSE({ event: 'ready', data: '{}' });
        // Ending (shutdown) still writes what was already queued.
        while ((!ended || queue.length > 0) && !stream.aborted && !stream.closed) {
          if (queue.length === 0) {
            // Wait for an event, or send a comment every 15 s so proxies keep the connection (on
            // real time: a test suite's faked timers must not drive it); an event clears the timer.
            let timer: ReturnType<typeof setTimeout> | undefined;
            await new Promise<void>((r) => {
              wake = r;
              timer = realTimers.setTimeout(r, 15_000);
              timer.unref?.();
            });
            realTimers.clearTimeout(timer);
            wake = null;
            if (queue.length === 0 && !stream.aborted) await stream.write(': keep-alive\n\n');
            continue;
          }
          const e = queue.shift()!;
          await stream.writeSSE({ id: String(nextId++), event: e.type, data: JSON.stringify(e.data) });
        }
        unsubscribe();
        offShutdown();
      });
    }],
  ]);
}
