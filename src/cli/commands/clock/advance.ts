import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { output } from '../../output.js';
import { parseDuration } from '../../../domain/time.js';
import { renderClock, type ClockJson } from './show.js';
import { reportingAttempts } from './attempts-run.js';
import { withoutTimeLimit } from '../../../client/api-client.js';
import { backwards, isBackwards } from './backwards.js';

export async function run(o: { args: string[] }, ctx: CliContext): Promise<void> {
  if (isBackwards(o.args[0])) throw backwards(o.args[0]); // given after `--`
  const ms = parseDuration(o.args[0]);
  if (ms == null) throw new UsageError(`<duration>: "${o.args[0]}" is not a duration; use e.g. 30s, 5m, 2h, 3d`);
  const client = await ctx.client();
  const clock = await reportingAttempts(ctx, client, () => withoutTimeLimit(client).admin<ClockJson>('POST', '/clock/advance', { body: { duration: ms } }));
  output(ctx, clock, () => renderClock(clock));
}
