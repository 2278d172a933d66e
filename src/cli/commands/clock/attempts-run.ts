// What a clock move set off: the emulator runs each webhook attempt that falls due on the way before
// it answers, and announces each on the event stream. Listening while the clock moves lets
// `vtr clock advance/set` say what ran, on stderr (stdout stays the clock; --quiet says nothing).
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient } from '../../../client/api-client.js';
import { eventStream } from '../../../client/sse.js';
import type { CliContext } from '../../context.js';
import { stderrStyle } from '../../style.js';
import { attemptResult, urlText, type AttemptEvent, type WebhookEventData } from '../webhooks/render.js';
import { timeFormat } from '../../time-display.js';

// The stream's last events may arrive just after the move's answer (another connection).
const SETTLE_MS = 150;
const CONNECT_MS = 1_000;

/** Runs `move` while listening; then prints each attempt, any webhook the disabling rule stopped, and a count. */
// An attempt is the move's when its start was seen while listening: one already running (a slow
// receiver's) also finishes during the move, which waits for it, but the move did not make it due.
const key = (a: { webhook_event_id: string; attempt: number }) => `${a.webhook_event_id}#${a.attempt}`;

export async function reportingAttempts<T>(ctx: CliContext, client: ApiClient, move: () => Promise<T>): Promise<T> {
  if (ctx.config.quiet) return move();
  const stop = new AbortController();
  const attempts: AttemptEvent[] = [];
  const startedHere = new Set<string>();
  // During a clock move only the disabling rule changes a webhook's status.
  const disabled = new Map<string, WebhookEventData>();
  let ready: () => void = () => {};
  const connected = new Promise<void>((r) => (ready = r));
  const listening = (async () => {
    try {
      const url = `${client.origin}/_vtr/api/stream?types=webhook_attempt.,webhook.updated`;
      for await (const ev of eventStream({ url, adminToken: client.options.adminToken, signal: stop.signal })) {
        if (ev.event === 'ready') ready();
        else if (ev.event === 'webhook_attempt.started') startedHere.add(key(JSON.parse(ev.data) as AttemptEvent));
        else if (ev.event === 'webhook_attempt.created') attempts.push(JSON.parse(ev.data) as AttemptEvent);
        else if (ev.event === 'webhook.updated') {
          const w = JSON.parse(ev.data) as WebhookEventData;
          if (w.status === 'disabled') disabled.set(w.webhook_id, w);
        }
      }
    } catch {
      // No stream (an older emulator, a proxy): the move still happens, without the summary.
    } finally {
      ready();
    }
  })();
  await Promise.race([connected, sleep(CONNECT_MS, undefined, { ref: false })]);
  try {
    let result: T;
    try {
      result = await move();
    } catch (err) {
      // A move cut short (the emulator stopping) still ran what it ran: listed before the error.
      await sleep(SETTLE_MS);
      if (attempts.length > 0) report();
      throw err;
    }
    await sleep(SETTLE_MS);
    report();
    return result;
  } finally {
    stop.abort();
    await listening;
  }

  function report(): void {
    const c = stderrStyle(ctx); // these lines go to stderr
    // Only a frozen or manual clock moves: these are emulated times.
    const t = timeFormat(true);
    let before = 0;
    for (const a of attempts) {
      const next = a.event_status === 'retrying' ? `, next ${t(a.next_attempt_at)}` : '';
      const ours = startedHere.has(key(a));
      if (!ours) before++;
      const note = ours ? '' : '  (already running before the move)';
      ctx.info(`  ${c.dim(t(a.at) ?? '')} ${a.webhook_event_id} #${a.attempt}  ${attemptResult(a)}  → ${a.event_status}${next}  ${c.dim(`${a.webhook_id} ${a.url ? urlText(a.url) : ''}`)}${note}`);
    }
    for (const w of disabled.values()) {
      ctx.info(c.red(`Webhook ${w.webhook_id} (${urlText(w.url)}) was disabled: ${w.consecutive_failures} failures in a row over 3 days or more; its pending events are failed. Re-enable: vtr webhooks enable ${w.webhook_id}`));
    }
    const ran = attempts.length - before;
    const also = before === 0 ? '' : `; ${before} already running before the move finished meanwhile`;
    ctx.info(`${ran === 0 ? 'No webhook attempt was due on the way' : `Ran ${ran} webhook attempt${ran === 1 ? '' : 's'} on the way`}${also}.`);
  }
}
