// What a clock move set off: the emulator runs each webhook attempt that falls due on the way before
// it answers, and announces each on the event stream. Listening while the clock moves lets
// `vtr clock advance/set` say what ran (human output only; --json stays the clock alone).
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient } from '../../../client/api-client.js';
import { eventStream } from '../../../client/sse.js';
import type { CliContext } from '../../context.js';
import { style } from '../../style.js';
import { attemptResult } from '../webhooks/render.js';

interface Attempt {
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
  webhook_event_id: string;
  event_status: string;
  next_attempt_at: string | null;
}

// The stream's last events may arrive just after the move's answer (another connection).
const SETTLE_MS = 150;
const CONNECT_MS = 1_000;

/** Runs `move` while listening for attempts; prints a line per attempt, then a count, on stderr. */
export async function reportingAttempts<T>(ctx: CliContext, client: ApiClient, move: () => Promise<T>): Promise<T> {
  if (ctx.config.json || ctx.config.quiet) return move();
  const stop = new AbortController();
  const seen: Attempt[] = [];
  let ready: () => void = () => {};
  const connected = new Promise<void>((r) => (ready = r));
  const listening = (async () => {
    try {
      const url = `${client.origin}/_vtr/api/stream?types=webhook_attempt.created`;
      for await (const ev of eventStream({ url, adminToken: client.options.adminToken, signal: stop.signal })) {
        if (ev.event === 'ready') ready();
        else seen.push(JSON.parse(ev.data) as Attempt);
      }
    } catch {
      // No stream (an older emulator, a proxy): the move still happens, without the summary.
    } finally {
      ready();
    }
  })();
  await Promise.race([connected, sleep(CONNECT_MS, undefined, { ref: false })]);
  try {
    const result = await move();
    await sleep(SETTLE_MS);
    const c = style(ctx);
    for (const a of seen) {
      const next = a.event_status === 'retrying' ? `, next ${a.next_attempt_at}` : '';
      ctx.info(`  ${c.dim(a.at)} ${a.webhook_event_id} #${a.attempt}  ${attemptResult(a)}  → ${a.event_status}${next}`);
    }
    ctx.info(seen.length === 0 ? 'No webhook attempt was due on the way.' : `Ran ${seen.length} webhook attempt${seen.length === 1 ? '' : 's'} on the way.`);
    return result;
  } finally {
    stop.abort();
    await listening;
  }
}
