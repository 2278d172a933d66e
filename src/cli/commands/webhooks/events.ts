import { EVENT_STATUSES, type WebhookEvent } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { output } from '../../output.js';
import { enc } from '../../site-ref.js';
import { renderEvents } from './render.js';
import { emulatedClock } from '../../time-display.js';

export async function run(o: { args: string[]; status?: string; limit: string }, ctx: CliContext): Promise<void> {
  if (o.status && !(EVENT_STATUSES as readonly string[]).includes(o.status)) throw new UsageError(`--status: "${o.status}" is not one of ${EVENT_STATUSES.join(', ')}`);
  const limit = Number(o.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError(`--limit: "${o.limit}" must be a whole number from 1 to 10000`);
  const client = await ctx.client();
  const events = await client.admin<WebhookEvent[]>('GET', `/webhooks/${enc(o.args[0])}/events`, { query: { status: o.status, limit } });
  const emulated = await emulatedClock(ctx, client);
  output(ctx, events, () => (events.length ? renderEvents(events, emulated) : 'No events.'));
}
