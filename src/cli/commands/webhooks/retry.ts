// One manual attempt now for a failed event (or every failed event of a webhook). On a TTY a
// spinner on stderr runs while the attempt does; the outcome follows. Exit 1 when it still failed.
import { ApiError, withoutTimeLimit, type ApiClient } from '../../../client/api-client.js';
import type { Webhook, WebhookEvent } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { OperationError, UsageError } from '../../errors.js';
import { MAX_LIMIT } from '../../list-page.js';
import { output } from '../../output.js';
import { enc, onGivenSite } from '../../site-ref.js';
import { attemptResult, urlText } from './render.js';
import { receiveCommandFor } from './receive-command.js';

export interface RetryOptions {
  args: string[];
  allFailed?: boolean;
  webhook?: string;
}

interface Spinner {
  text: string;
  stop(): void;
}

async function spinner(ctx: CliContext, text: string): Promise<Spinner> {
  // A terminal that reports no width (some pseudo-terminals) would make the spinner's redraw loop.
  const columns = (ctx.io.stderr as { columns?: number }).columns ?? 0;
  if (!ctx.io.stderr.isTTY || ctx.config.quiet || columns <= 0) return { text, stop() {} };
  const { default: ora } = await import('ora');
  return ora({ text, stream: ctx.io.stderr as NodeJS.WritableStream, color: ctx.config.color ? 'cyan' : undefined, isEnabled: true }).start();
}

function outcome(e: WebhookEvent): string {
  const last = e.attempts[e.attempts.length - 1];
  const how = last ? `attempt ${last.attempt} (${attemptResult(last)}, ${last.duration_ms}ms)` : 'no attempt';
  return e.status === 'delivered' ? `Delivered ${e.webhook_event_id} on ${how}` : `${e.webhook_event_id} still failed: ${how}`;
}

// The emulator answers once the attempt is recorded, up to its --webhook-timeout: no time limit.
const retryOne = (client: ApiClient, id: string) => withoutTimeLimit(client).admin<WebhookEvent>('POST', `/webhook-events/${enc(id)}/retry`);

/** Every failed event of a webhook, newest first: one listing answers at most MAX_LIMIT, so page on. */
async function failedEvents(client: ApiClient, webhook: string): Promise<WebhookEvent[]> {
  const events: WebhookEvent[] = [];
  for (;;) {
    const before = events.at(-1)?.webhook_event_id;
    const page = await client.admin<WebhookEvent[]>('GET', `/webhooks/${enc(webhook)}/events`, {
      query: { status: 'failed', limit: MAX_LIMIT, ...(before ? { before } : {}) },
    });
    events.push(...page);
    if (page.length < MAX_LIMIT) return events;
  }
}

/** After a refused connection: nothing listens at the webhook's URL; the receiver to start there. */
async function refusedHint(client: ApiClient, e: WebhookEvent): Promise<string> {
  const last = e.attempts.at(-1);
  if (!last || last.status_code != null || !/\bECONNREFUSED\b/.test(last.error ?? '')) return '';
  const hook = await client.admin<Webhook>('GET', `/webhooks/${enc(e.webhook_id)}`);
  const receive = receiveCommandFor(hook.url);
  const change = `vtr webhooks update ${e.webhook_id} --url <url>`;
  return `; nothing listens at ${urlText(hook.url)}: ${receive ? `start \`${receive}\` there, or ` : ''}check the webhook's URL (\`${change}\` changes it)`;
}

/** Retrying never changes a webhook's status: after a delivery, says so when it still gets no new events. */
async function sayIfDisabled(ctx: CliContext, client: ApiClient, webhookId: string): Promise<void> {
  const hook = await client.admin<{ status: string }>('GET', `/webhooks/${enc(webhookId)}`);
  if (hook.status === 'disabled') ctx.info(`${webhookId} is still disabled and gets no new events: vtr webhooks enable ${webhookId}`);
}

export async function run(o: RetryOptions, ctx: CliContext): Promise<void> {
  const id = o.args[0];
  if (o.allFailed && id) throw new UsageError('give either an event id or --all-failed --webhook <id>, not both');
  if (o.allFailed && !o.webhook) throw new UsageError('--all-failed needs --webhook <id>');
  // Given with one event, --webhook would be ignored: the event is retried whichever webhook it is of.
  if (!o.allFailed && o.webhook !== undefined) {
    throw new UsageError(`--webhook goes with --all-failed (every failed event of that webhook): use \`vtr webhooks retry --all-failed --webhook ${o.webhook}\`, or give the event id alone`);
  }
  if (!o.allFailed && !id) throw new UsageError('give the event id to retry (see `vtr webhooks events <webhook-id> --status failed`), or --all-failed --webhook <id>');
  const client = await ctx.client();

  if (!o.allFailed) {
    await onGivenSite(ctx, client, `/webhook-events/${enc(id)}`, `event ${id}`);
    const spin = await spinner(ctx, `Retrying ${id}…`);
    let event: WebhookEvent;
    try {
      event = await retryOne(client, id);
    } finally {
      spin.stop();
    }
    // A failure is said once, as the error (--json still prints the event on stdout).
    if (event.status !== 'delivered') {
      if (ctx.config.json) output(ctx, event, () => '');
      throw new OperationError(`${outcome(event)}${await refusedHint(client, event)}`);
    }
    output(ctx, event, () => outcome(event));
    await sayIfDisabled(ctx, client, event.webhook_id);
    return;
  }

  await onGivenSite(ctx, client, `/webhooks/${enc(o.webhook!)}`, `webhook ${o.webhook}`);
  const failed = await failedEvents(client, o.webhook!);
  if (failed.length === 0) ctx.info(`No failed events for ${o.webhook}.`);
  const results: WebhookEvent[] = [];
  const lines: string[] = [];
  const spin = await spinner(ctx, 'Retrying…');
  try {
    // Oldest first, one at a time, as a receiver would have seen them.
    for (const [i, e] of [...failed].reverse().entries()) {
      spin.text = `Retrying ${e.webhook_event_id} (${i + 1}/${failed.length})…`;
      try {
        const after = await retryOne(client, e.webhook_event_id);
        results.push(after);
        lines.push(outcome(after));
      } catch (err) {
        // Changed since the list (delivered or retrying now): report it and go on.
        if (!(err instanceof ApiError) || err.status !== 409) throw err;
        lines.push(`${e.webhook_event_id} skipped: ${err.message}`);
      }
    }
  } finally {
    spin.stop();
  }
  output(ctx, results, () => lines);
  const stillFailed = results.filter((e) => e.status !== 'delivered').length;
  if (failed.length) ctx.info(`Retried ${results.length} failed event(s): ${results.length - stillFailed} delivered, ${stillFailed} still failed.`);
  if (results.length > stillFailed) await sayIfDisabled(ctx, client, o.webhook!);
  if (stillFailed) throw new OperationError(`${stillFailed} event(s) still failed`);
}
