// Live webhook attempts from the emulator's event stream. Reconnects by itself (with backoff) when
// the emulator restarts, saying so on stderr. --json: one JSON object per line.
import { streamEvents } from '../../../client/event-stream.js';
import type { CliContext } from '../../context.js';
import { enc, onGivenSite, siteFilter } from '../../site-ref.js';
import { style } from '../../style.js';
import { attemptResult, urlText, type AttemptEvent, type WebhookEventData } from './render.js';
import { liveTimes, type TimeFormat } from '../../time-display.js';
import { DISABLE_AFTER_FAILURES } from '../../../domain/disabling.js';
import { streamStatusLine } from '../../stream-status.js';

export interface TailOptions {
  webhook?: string;
  site?: string;
}

type StartedData = Pick<AttemptEvent, 'attempt' | 'trigger' | 'at' | 'webhook_event_id' | 'webhook_id' | 'site_id' | 'url'>;

export async function run(o: TailOptions, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  // A mistyped id, or one of another site than --site, would filter out everything, forever: look
  // it up first (a 404 or the other site ends the command).
  if (o.webhook) {
    const path = `/webhooks/${enc(o.webhook)}`;
    if (!(await onGivenSite(ctx, client, path, `webhook ${o.webhook}`))) await client.admin('GET', path);
  }
  // A webhook is on one site: --webhook alone narrows the tail (an explicit --site was checked
  // above). VTR_SITE, which `vtr exec` sets to the default site, must not hide another site's webhook.
  const site = o.webhook ? null : await siteFilter(ctx, client, o.site);
  const c = style(ctx);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  // What --webhook / --site narrow the tail to.
  const mine = (x: { webhook_id: string; site_id: string }) => (!o.webhook || x.webhook_id === o.webhook) && (!site || x.site_id === site);

  const print = (a: AttemptEvent, t: TimeFormat) => {
    if (!mine(a)) return;
    if (ctx.config.json) return void ctx.io.stdout.write(`${JSON.stringify(a)}\n`);
    const ok = a.event_status === 'delivered' && (a.status_code ?? 0) >= 200 && (a.status_code ?? 0) < 300;
    const mark = ok ? c.green('✓') : c.red('✗');
    const state = a.event_status === 'retrying' ? c.yellow(`retrying, next ${t(a.next_attempt_at)}`) : ok ? c.green(a.event_status) : c.red(a.event_status);
    ctx.io.stdout.write(
      `${c.dim(t(a.at) ?? '')} ${mark} ${a.webhook_event_id} #${a.attempt} ${a.trigger}  ${attemptResult(a)}  ${a.duration_ms}ms  ${state}  ${c.dim(`${a.webhook_id} ${a.url ? urlText(a.url) : ''}`)}\n`,
    );
  };

  const printStarted = (a: StartedData, t: TimeFormat) => {
    if (!mine(a)) return;
    ctx.io.stdout.write(`${c.dim(t(a.at) ?? '')} ${c.dim('→')} ${a.webhook_event_id} #${a.attempt} ${a.trigger}  ${c.dim(`POST ${urlText(a.url ?? '')} …`)}\n`);
  };

  // A webhook disabled or enabled (by hand, or by the disabling rule) explains what follows. A
  // failure count below the rule's says nothing of why (a webhook disabled by hand).
  const lastStatus = new Map<string, string>();
  const printStatus = (w: WebhookEventData) => {
    if (!mine(w)) return;
    if (lastStatus.get(w.webhook_id) === w.status) return;
    const known = lastStatus.has(w.webhook_id);
    lastStatus.set(w.webhook_id, w.status);
    if (!known && w.status === 'enabled') return; // a URL change of an enabled webhook
    const what = w.status === 'disabled' ? c.red(`webhook ${w.webhook_id} disabled${w.consecutive_failures >= DISABLE_AFTER_FAILURES ? ` after ${w.consecutive_failures} failures in a row` : ''}; its pending events are failed`) : c.green(`webhook ${w.webhook_id} enabled`);
    ctx.io.stdout.write(`${what}  ${c.dim(urlText(w.url))}\n`);
  };

  // A deleted webhook gets no more attempts: say so; a tail of that webhook alone has nothing left.
  const printDeleted = (w: WebhookEventData) => {
    if (!mine(w)) return;
    // --json stays one finished attempt per line: the deletion is said on stderr alone.
    if (!ctx.config.json) ctx.io.stdout.write(`${c.red(`webhook ${w.webhook_id} deleted`)}  ${c.dim(urlText(w.url))}\n`);
    if (o.webhook) {
      ctx.info(`vtr: webhook ${w.webhook_id} was deleted; nothing left to tail.`);
      stop.abort();
    }
  };

  const times = await liveTimes(ctx, client, (e: { type: string; data: unknown }, t: TimeFormat) => {
    if (e.type === 'webhook_attempt.created') print(e.data as AttemptEvent, t);
    // Human output only: --json stays one finished attempt per line.
    else if (e.type === 'webhook_attempt.started' && !ctx.config.json) printStarted(e.data as StartedData, t);
    else if (e.type === 'webhook.updated' && !ctx.config.json) printStatus(e.data as WebhookEventData);
    else if (e.type === 'webhook.deleted') printDeleted(e.data as WebhookEventData);
  });

  let away = false;
  try {
    await streamEvents({
      origin: client.origin,
      adminToken: client.options.adminToken,
      types: ['webhook_attempt.', 'webhook.updated', 'webhook.deleted'],
      signal: stop.signal,
      onEvent: times.onEvent,
      // Said once the server has subscribed us: a script that waits for it misses no event.
      onReady: () => ctx.info(`Tailing webhook attempts from ${client.origin} (Ctrl-C to stop)…`),
      // The loss is said in full once; each further try briefly, so a long outage is not a wall of it.
      onStatus: (status, detail, retryInMs) => {
        ctx.info(streamStatusLine(away, detail, retryInMs));
        away = status === 'disconnected';
        if (status === 'connected') times.reconnected();
      },
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
