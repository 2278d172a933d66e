import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { output } from '../../output.js';
import { parseDuration } from '../../../domain/time.js';
import { renderClock, type ClockJson } from './show.js';
import { reportingAttempts } from './attempts-run.js';

/** `-5m` asks to go back, which a manual clock never does (index.ts lets it through as the argument). */
export const backwards = (duration: string) => new UsageError(`<duration>: "${duration}": the clock only moves forward; give a positive duration, e.g. 5m`);

export async function run(o: { args: string[] }, ctx: CliContext): Promise<void> {
  if (/^-\d/.test(o.args[0])) throw backwards(o.args[0]);
  const ms = parseDuration(o.args[0]);
  if (ms == null) throw new UsageError(`<duration>: "${o.args[0]}" is not a duration; use e.g. 30s, 5m, 2h, 3d`);
  const client = await ctx.client();
  const clock = await reportingAttempts(ctx, client, () => client.admin<ClockJson>('POST', '/clock/advance', { body: { duration: ms } }));
  output(ctx, clock, () => renderClock(clock));
}
