import type { CliContext } from '../../context.js';
import { wholeNumber } from '../../whole-number.js';
import { output, table } from '../../output.js';
import { siteFilter } from '../../site-ref.js';
import { formatDurationMs, type LogEntryJson } from './render.js';
import { emulatedClock, timeFormat } from '../../time-display.js';
import { listPage, tellMore } from '../../list-page.js';

export async function run(o: { limit: string; site?: string }, ctx: CliContext): Promise<void> {
  const limit = wholeNumber('--limit', o.limit, 1, 10_000);
  const client = await ctx.client();
  // The log covers every site unless --site (or VTR_SITE) narrows it.
  const site = await siteFilter(ctx, client, o.site);
  const page = await listPage<LogEntryJson>(client, '/logs', { site }, limit, (e) => e.request_id);
  const entries = page.items;
  const time = timeFormat(await emulatedClock(ctx, client), true);
  output(ctx, entries, () =>
    entries.length
      ? table(
          [`TIME (${time.zone})`, 'METHOD', 'PATH', 'STATUS', 'DURATION', 'REQUEST'],
          entries.map((e) => [time(e.created_at), e.method, e.path, e.status, formatDurationMs(e.duration_ms), e.request_id]),
        )
      : 'No requests logged yet.',
  );
  tellMore(ctx, page, 'request', '--site');
}
