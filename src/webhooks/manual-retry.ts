// A manual attempt of a `failed` webhook event (`vtr webhooks retry`), refused with the reason
// while the event is delivered, still retrying, running, on a free site or the emulator is stopping.
import type { Clock } from '../domain/clock.js';
import { dueAtMs } from '../domain/attempt-due.js';
import { notFound, shownId, VtrError } from '../domain/errors.js';
import type { OptionNames } from '../domain/option-names.js';
import { formatMicros } from '../domain/time.js';
import { manualRetryRefusal } from '../domain/webhook-event.js';
import type { WebhookEvent } from '../domain/webhooks.js';
import type { Store } from '../store/index.js';
import type { Attempts } from './attempts.js';
import type { Claims } from './claims.js';
import { loadEventJson } from './json.js';
import { nextAttemptText } from './next-attempt-text.js';

export interface ManualRetryDeps {
  store: Store;
  clock: Clock;
  names: Pick<OptionNames, 'followAttempts' | 'advanceClockBy'>;
  claims: Claims;
  attempts: Attempts;
  /** Whether the emulator is stopping (no attempt starts any more). */
  closing: () => boolean;
}

export function createManualRetry(d: ManualRetryDeps) {
  const { store, clock, names, claims, attempts } = d;

  /** One manual attempt now, for a `failed` event; answers the event after it. */
  async function retry(eventId: string): Promise<WebhookEvent> {
    const ev = store.webhookEvents.get(eventId);
    if (!ev) throw notFound(`webhook event ${shownId(eventId)}`);
    // Checked first: while an attempt runs, the stored state (e.g. a due time now past) is stale.
    if (attempts.running(eventId)) throw new VtrError('retries_in_progress', `an attempt of webhook event ${eventId} is running now; wait for its result (${names.followAttempts})`, { next_attempt_at: null });
    const refusal = manualRetryRefusal(ev);
    if (refusal?.code === 'already_delivered') throw new VtrError('already_delivered', `webhook event ${eventId} was already delivered`);
    const site = store.sites.get(ev.site_id);
    if (refusal?.code === 'retries_in_progress') {
      const nextUs = refusal.next_attempt_us;
      const aheadMs = nextUs == null ? 0 : dueAtMs(clock.mode, nextUs) - clock.now();
      const when = nextAttemptText({ mode: clock.mode, names, nextUs, aheadMs, freeSite: site?.plan === 'paid' ? null : ev.site_id });
      const details = { next_attempt_at: nextUs == null ? null : formatMicros(nextUs) };
      throw new VtrError('retries_in_progress', `webhook event ${eventId} is ${ev.status}: its automatic retries are not done; ${when}`, details);
    }
    if (site?.plan !== 'paid') {
      throw new VtrError('plan_required', `site ${ev.site_id} is on the free plan: webhooks deliver on paid sites only (vtr sites update ${ev.site_id} --plan paid)`);
    }
    if (d.closing()) throw new VtrError('shutting_down', 'the emulator is shutting down; retry the event once it is running again');
    const claimed = claims.take([eventId], (id) => {
      const now = store.webhookEvents.get(id);
      return now != null && manualRetryRefusal(now) == null;
    });
    if (claimed.heldElsewhere > 0) {
      throw new VtrError('retries_in_progress', `an attempt of webhook event ${eventId} is running now in another vtr serve on this database; wait for its result`, { next_attempt_at: null });
    }
    // Another process changed it since it was read: answer from what it is now.
    if (claimed.taken.length === 0) return retry(eventId);
    await attempts.start(eventId, 'manual');
    const after = store.webhookEvents.get(eventId);
    // Deleting a webhook deletes its events: say so, rather than deny the event ever was.
    if (!after) throw new VtrError('not_found', `webhook event ${eventId} was deleted with its webhook ${ev.webhook_id} while this attempt ran: its result is not kept`);
    return loadEventJson(store, after);
  }

  return retry;
}
