import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { output } from '../../output.js';
import { parseTimestamp } from '../../../domain/time.js';
import { renderClock, type ClockJson } from './show.js';
import { reportingAttempts } from './attempts-run.js';
import { withoutTimeLimit } from '../../../client/api-client.js';

export async function run(o: { args: string[] }, ctx: CliContext): Promise<void> {
  if (parseTimestamp(o.args[0]) == null) throw new UsageError(`<timestamp>: "${o.args[0]}" is not a time; use ISO 8601, e.g. 2026-12-01T09:00:00 (UTC when no zone), or a time as vtr shows it, e.g. "2026-12-01 09:00:00 UTC"`);
  const client = await ctx.client();
  // A time behind the clock's: the server's answer names both times and the way back.
  const clock = await reportingAttempts(ctx, client, () => withoutTimeLimit(client).admin<ClockJson>('POST', '/clock/set', { body: { timestamp: o.args[0] } }));
  output(ctx, clock, () => renderClock(clock));
}
