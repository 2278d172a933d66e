import type { Session } from '../../../domain/session.js';
import { sessionWebhookEvents, tellSetOff } from '../webhooks/set-off.js';
import type { CliContext } from '../../context.js';
import { eventNameArg } from '../../event-name.js';
import { UsageError } from '../../errors.js';
import { isIpAddress } from '../../../domain/ip-intel.js';
import { httpUrlProblem } from '../../../domain/webhooks.js';
import { output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';
import { style } from '../../style.js';
import { emulatedClock, timeFormat } from '../../time-display.js';
import { renderSession } from '../session/render.js';
import { wholeNumber } from '../../whole-number.js';

export interface CreateOptions {
  ip: string; userAgent?: string; url: string; referrer?: string; language: string; timezone?: string;
  pageViews: string; duration: string; fingerprint?: string; event?: string[]; site?: string;
}

/** A page's address as a browser reports it: absolute http(s), so its click ids and host are read. */
function pageUrl(flag: string, v: string): void {
  if (httpUrlProblem(v)) throw new UsageError(`${flag}: "${v}" must be an absolute http(s) URL, e.g. https://shop.example.com/?gclid=abc`);
}

export async function run(o: CreateOptions, ctx: CliContext): Promise<void> {
  if (!isIpAddress(o.ip)) throw new UsageError(`--ip: "${o.ip}" is not an IPv4 or IPv6 address (e.g. 192.0.2.1 or 2001:db8::1)`);
  pageUrl('--url', o.url);
  if (o.referrer !== undefined) pageUrl('--referrer', o.referrer);
  const events = (o.event ?? []).map((e) => eventNameArg('--event', e));
  for (const e of events) {
    // Counted as the API counts them (code points).
    if ([...e].length > 100) throw new UsageError(`--event: "${e}" must be a name of 1 to 100 characters`);
  }
  const body = {
    ip: o.ip,
    ...(o.userAgent !== undefined ? { user_agent: o.userAgent } : {}),
    url: o.url,
    referrer: o.referrer ?? null,
    language: o.language,
    timezone: o.timezone ?? null,
    page_views: wholeNumber('--page-views', o.pageViews, 1, 10_000),
    duration: wholeNumber('--duration', o.duration, 0, 604_800),
    ...(o.fingerprint !== undefined ? { fingerprint: o.fingerprint } : {}),
    ...(events.length ? { custom_events: events } : {}),
  };
  const client = await ctx.client();
  const site = await currentSiteId(ctx, client, o.site);
  const session = await client.admin<Session>('POST', `/sites/${enc(site)}/sessions`, { body });
  const time = timeFormat(await emulatedClock(ctx, client));
  output(ctx, session, () => renderSession(session, style(ctx), time));
  if (!ctx.config.quiet) tellSetOff(ctx, (await sessionWebhookEvents(client, session.session_id)) ?? []);
}
