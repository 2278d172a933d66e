import type { CliContext } from '../../context.js';
import { keyValues, output } from '../../output.js';
import { timeFormat } from '../../time-display.js';

export interface ClockJson { now: string; mode: string; offset_ms: number }

export const renderClock = (c: ClockJson) =>
  keyValues([['now', timeFormat(c.mode !== 'system')(c.now)], ['mode', c.mode], ['offset_ms', c.offset_ms]]);

export async function run(_o: unknown, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const clock = await client.admin<ClockJson>('GET', '/clock');
  output(ctx, clock, () => renderClock(clock));
}
