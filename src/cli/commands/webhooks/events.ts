import { EVENT_STATUSES, type WebhookEvent } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { wholeNumber } from '../../whole-number.js';
import { output } from '../../output.js';
import { enc, onGivenSite } from '../../site-ref.js';
import { renderEvents } from './render.js';
import { emulatorClock } from '../../time-display.js';
import { holdingSites } from './held.js';
import { listPage, tellMore } from '../../list-page.js';

export async function run(o: { args: string[]; status?: string; limit: string }, ctx: CliContext): Promise<void> {
  if (o.status && !(EVENT_STATUSES as readonly string[]).includes(o.status)) throw new UsageError(`--status: "${o.status}" is not one of ${EVENT_STATUSES.join(', ')}`);
  const limit = wholeNumber('--limit', o.limit, 1, 10_000);
  const client = await ctx.client();
  await onGivenSite(ctx, client, `/webhooks/${enc(o.args[0])}`, `webhook ${o.args[0]}`);
  const page = await listPage<WebhookEvent>(client, `/webhooks/${enc(o.args[0])}/events`, { status: o.status }, limit, (e) => e.webhook_event_id);
  const events = page.items;
  const { emulated, now } = await emulatorClock(ctx, client);
  const held = await holdingSites(ctx, client, events.map((e) => e.site_id));
  output(ctx, events, () => (events.length ? renderEvents(events, emulated, now, held) : `No ${o.status ? `${o.status} ` : ''}events.`));
  tellMore(ctx, page, 'event', '--status');
}
