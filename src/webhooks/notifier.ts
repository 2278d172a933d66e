// The emulator's mail outbox: "webhook event failed" and "webhook disabled" notifications to the
// site's owner email. Written in the transaction that caused them; with --smtp also sent (after
// commit) with nodemailer. A failed send is recorded on the notification, never thrown.
import type { Clock } from '../domain/clock.js';
import type { Site } from '../domain/site.js';
import type { Notification, NotificationKind } from '../domain/webhooks.js';
import { newId } from '../domain/ids.js';
import { formatMicros } from '../domain/time.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/index.js';

export const MAIL_FROM = 'vtr emulator <vtr@localhost>';

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

export function createNotifier({ store, clock, bus, smtpUrl, log }: NotifierDeps) {
  const sending = new Set<Promise<void>>();
  let mailer: Promise<Mailer> | null = null;

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
    try {
      store.notifications.markSent(n.notification_id, error ? null : formatMicros(clock.nowMicros()), error);
    } catch {
      // The store closed while sending: the outbox keeps the notification, unsent.
    }
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
      store.notifications.insert(n, nowUs);
      return n;
    },
    /** After commit: announce it, and send it over SMTP when configured. */
    dispatch(n: Notification): void {
      bus.publish({ type: 'notification.created', data: n as unknown as Record<string, unknown> });
      const p = send(n).finally(() => sending.delete(p));
      sending.add(p);
    },
    /** Waits for sends in progress (bounded by the transport's timeouts), then closes the transport. */
    async close(): Promise<void> {
      await Promise.allSettled([...sending]);
      if (mailer) (await mailer.catch(() => null))?.close();
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
