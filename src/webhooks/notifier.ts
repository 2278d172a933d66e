// The emulator's mail outbox: "webhook event failed" and "webhook disabled" notifications to the
// site's owner email. Written in the transaction that caused them; with --smtp also sent (after
// commit) with nodemailer, at least once: written with --smtp, a notification waits for its send
// (send_pending) until the send succeeded or failed, and one a crash left waiting is sent by the
// next `vtr serve --smtp` on the file: at its start, and every few seconds while it runs (a second
// server takes over from one that died). A send is claimed (claims.ts), so two servers do not both
// send it. A failed send is recorded on the notification, never thrown.
import type { Clock } from '../domain/clock.js';
import type { Site } from '../domain/site.js';
import type { Notification, NotificationKind } from '../domain/webhooks.js';
import { newId } from '../domain/ids.js';
import { formatMicros } from '../domain/time.js';
import { isStorageFault } from '../domain/errors.js';
import { realTimers } from '../domain/timers.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/index.js';
import { createClaims } from './claims.js';

export const MAIL_FROM = 'vtr emulator <vtr@localhost>';

/** How long a send may take: the transport's connection, greeting and socket timeouts below. */
const SEND_TIMEOUT_MS = 40_000;
/** How often a server with --smtp looks for notifications left waiting (another server on the file died). */
const WAITING_EVERY_MS = 5_000;
/** Sends started by one look, at most. */
const WAITING_BATCH = 50;

export interface NotifierDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  smtpUrl?: string | null;
  /** Logs send failures (stderr in `vtr serve`). */
  log?: (line: string) => void;
}

export interface NotificationInput {
  kind: NotificationKind;
  site: Site;
  webhook_id: string | null;
  webhook_event_id: string | null;
  subject: string;
  body: string;
}

interface Mailer {
  sendMail(m: { from: string; to: string; subject: string; text: string }): Promise<unknown>;
  close(): void;
}

interface SendResult {
  at: string | null;
  error: string | null;
}

export function createNotifier({ store, clock, bus, smtpUrl, log }: NotifierDeps) {
  const sending = new Map<string, Promise<void>>();
  // Sent (or failed), but the result could not be written (a full disk): written by the next look,
  // not sent again.
  const unrecorded = new Map<string, SendResult>();
  const claims = smtpUrl ? createClaims(store, store.notificationClaims, clock, SEND_TIMEOUT_MS) : null;
  let mailer: Promise<Mailer> | null = null;
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  async function getMailer(url: string): Promise<Mailer> {
    mailer ??= import('nodemailer').then((m) =>
      m.default.createTransport({
        url,
        // A local mail catcher (Mailpit, MailHog, smtp-server) often offers STARTTLS with a
        // self-signed certificate: accept it, this is a development tool.
        tls: { rejectUnauthorized: false },
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      } as Parameters<typeof m.default.createTransport>[0]) as unknown as Mailer,
    );
    return mailer;
  }

  /** The send's result, and the claim given up, in one transaction; false when it could not be written. */
  function record(id: string, r: SendResult): boolean {
    try {
      store.tx(() => {
        store.notifications.markSent(id, r.at, r.error);
        claims?.release(id);
      });
      unrecorded.delete(id);
      // The outbox page shows the send's result as it comes (sent_at or send_error).
      if (bus.wants('notification.updated')) {
        const n = store.notifications.get(id);
        if (n) bus.publish({ type: 'notification.updated', data: n as unknown as Record<string, unknown> });
      }
      return true;
    } catch {
      // A storage fault, or the store closed while sending: the notification stays waiting (a
      // restart sends it again), and while this process runs the next look writes the result.
      unrecorded.set(id, r);
      return false;
    }
  }

  async function send(n: Notification): Promise<void> {
    if (!smtpUrl) return;
    let error: string | null = null;
    if (!n.to) error = 'the site has no owner email';
    else {
      try {
        const m = await getMailer(smtpUrl);
        await m.sendMail({ from: MAIL_FROM, to: n.to, subject: n.subject, text: n.body });
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
    }
    if (error) log?.(`vtr: could not send notification ${n.notification_id} over SMTP: ${error}`);
    record(n.notification_id, { at: error ? null : formatMicros(clock.nowMicros()), error });
  }

  function startSend(n: Notification): void {
    if (sending.has(n.notification_id)) return;
    const p = send(n).finally(() => sending.delete(n.notification_id));
    sending.set(n.notification_id, p);
  }

  /** Sends the notifications left waiting that no live server is sending (a crash, an import). */
  function resume(): void {
    if (!claims || !started || stopped) return;
    try {
      for (const [id, r] of unrecorded) if (!record(id, r)) return;
      const ids = store.notifications.waiting(WAITING_BATCH + sending.size).filter((id) => !sending.has(id)).slice(0, WAITING_BATCH);
      if (ids.length === 0) return;
      // Re-read under the lock: another server may have recorded its send since.
      const { taken } = claims.take(ids, (id) => store.notifications.isWaiting(id));
      for (const id of taken) {
        const n = store.notifications.get(id);
        if (n) startSend(n);
      }
    } catch (err) {
      // A full disk or read-only database: the fault log has its line; the next look tries again.
      if (!isStorageFault(err)) log?.(`vtr: notifications: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Takes no more waiting ones (the emulator is stopping); sends of new notifications go on. */
  function pause(): void {
    stopped = true;
    if (timer) realTimers.clearInterval(timer);
  }

  return {
    /** Writes a notification to the outbox; call inside the transaction, then `dispatch` it. */
    write(input: NotificationInput): Notification {
      const nowUs = clock.nowMicros();
      const n: Notification = {
        notification_id: newId.notification(),
        kind: input.kind,
        site_id: input.site.site_id,
        webhook_id: input.webhook_id,
        webhook_event_id: input.webhook_event_id,
        to: input.site.owner_email,
        subject: input.subject,
        body: input.body,
        created_at: formatMicros(nowUs),
        sent_at: null,
        send_error: null,
      };
      store.notifications.insert(n, nowUs, claims !== null);
      // Claimed with it: this server sends it after commit, no other one meanwhile.
      claims?.take([n.notification_id], () => true);
      return n;
    },
    /** After commit: announce it, and send it over SMTP when configured. */
    dispatch(n: Notification): void {
      bus.publish({ type: 'notification.created', data: n as unknown as Record<string, unknown> });
      if (claims) startSend(n);
    },
    /** With SMTP: sends what was left waiting, now and every few seconds (`vtr serve`: once listening). */
    start(): void {
      if (!claims || started || stopped) return;
      started = true;
      resume();
      timer = realTimers.setInterval(resume, WAITING_EVERY_MS);
      timer.unref();
    },
    /** Looks for waiting notifications now (an import may have brought some). */
    resume,
    pause,
    /** Waits for sends in progress (bounded by the transport's timeouts), then closes the transport. */
    async close(): Promise<void> {
      pause();
      await Promise.allSettled([...sending.values()]);
      claims?.close();
      if (mailer) (await mailer.catch(() => null))?.close();
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
