import { streamEvents } from '../../../client/event-stream.js';
import type { CliContext } from '../../context.js';
import { siteFilter } from '../../site-ref.js';
import { style } from '../../style.js';
import { logLine, type LogEntryJson } from './render.js';
import { liveTimes } from '../../time-display.js';
import { streamStatusLine } from '../../stream-status.js';

export async function run(o: { site?: string }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const c = style(ctx);
  const site = await siteFilter(ctx, client, o.site);
  const times = await liveTimes(ctx, client, (e: LogEntryJson, t) => {
    if (site && e.site_id !== site) return;
    ctx.io.stdout.write(`${ctx.config.json ? JSON.stringify(e) : logLine(c, e, t.emulated ? 'UTC (emulated)' : 'UTC')}\n`);
  });
  const ctrl = new AbortController();
  const stop = () => ctrl.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let away = false;
  try {
    await streamEvents({
      origin: client.origin,
      adminToken: client.options.adminToken,
      types: ['request.logged'],
      signal: ctrl.signal,
      onEvent: ({ data }) => times.onEvent(data as LogEntryJson),
      // Said once the server has subscribed us: a script that waits for it misses no event.
      onReady: () => ctx.info(`Tailing requests to ${client.baseUrl} (Ctrl-C to stop)…`),
      onStatus: (status, detail, retryInMs) => {
        ctx.info(streamStatusLine(away, detail, retryInMs));
        away = status === 'disconnected';
        if (status === 'connected') times.reconnected(); // it may have come back with another --clock
      },
    });
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
