import type { Notification } from '../../../domain/webhooks.js';
import { emulatedClock, timeFormat } from '../../time-display.js';
import type { CliContext } from '../../context.js';
import { wholeNumber } from '../../whole-number.js';
import { output, printable, printableLines, table } from '../../output.js';
import { siteFilter } from '../../site-ref.js';
import { listPage, tellMore } from '../../list-page.js';

// A mail is addressed when it is written: one with no recipient says why, and how later ones get one.
const recipient = (n: Notification): string =>
  n.to ? printable(n.to) : `nobody: site ${n.site_id} has no owner email (later mails go to the one set by vtr sites update ${n.site_id} --owner-email <email>)`;

export async function run(o: { site?: string; limit: string; full?: boolean }, ctx: CliContext): Promise<void> {
  const limit = wholeNumber('--limit', o.limit, 1, 10_000);
  const client = await ctx.client();
  // Every site's outbox unless --site (or VTR_SITE) narrows it.
  const site = await siteFilter(ctx, client, o.site);
  const page = await listPage<Notification>(client, '/notifications', { site }, limit, (n) => n.notification_id);
  const list = page.items;
  const emulated = await emulatedClock(ctx, client);
  const time = timeFormat(emulated);
  // A table marks "emulated" once, in its header, as the webhooks tables do.
  const cellTime = timeFormat(emulated, true);
  output(ctx, list, () => {
    if (!list.length) return 'The outbox is empty.';
    // A mail's text carries names and URLs: escaped as in every other human output.
    if (o.full) return list.map((n) => `${time(n.created_at)}  to ${recipient(n)}\nSubject: ${printable(n.subject)}\n\n${printableLines(n.body)}\n`).join('\n');
    return table(
      [`CREATED (${cellTime.zone.toUpperCase()})`, 'KIND', 'TO', 'SUBJECT', 'SMTP'],
      list.map((n) => [cellTime(n.created_at), n.kind, n.to, n.subject, n.sent_at ? 'sent' : n.send_error ? `failed: ${n.send_error}` : '-']),
    );
  });
  tellMore(ctx, page, 'notification', '--site');
}
