import { ApiError } from '../../../client/api-client.js';
import type { CliContext } from '../../context.js';
import { OperationError, UsageError } from '../../errors.js';
import { output } from '../../output.js';
import { parseTimestamp } from '../../../domain/time.js';
import { renderClock, type ClockJson } from './show.js';
import { reportingAttempts } from './attempts-run.js';
import { withoutTimeLimit } from '../../../client/api-client.js';
import { timeFormat } from '../../time-display.js';

export async function run(o: { args: string[] }, ctx: CliContext): Promise<void> {
  if (parseTimestamp(o.args[0]) == null) throw new UsageError(`<timestamp>: "${o.args[0]}" is not a time; use ISO 8601, e.g. 2026-12-01T09:00:00`);
  const client = await ctx.client();
  let clock: ClockJson;
  try {
    clock = await reportingAttempts(ctx, client, () => withoutTimeLimit(client).admin<ClockJson>('POST', '/clock/set', { body: { timestamp: o.args[0] } }));
  } catch (err) {
    // "Only moves forward" is only useful with the time it cannot go back from.
    if (!(err instanceof ApiError) || err.status !== 409 || !/only moves forward/.test(err.message)) throw err;
    const current = await client.admin<ClockJson>('GET', '/clock').catch(() => null);
    if (!current) throw err;
    const now = timeFormat(current.mode !== 'system')(current.now);
    throw new OperationError(`${o.args[0]} is before the clock's current time, ${now}: the clock only moves forward`);
  }
  output(ctx, clock, () => renderClock(clock));
}
