// The webhook subsystem, built once by the composition root: saved views, webhooks, the trigger
// (session hooks), the dispatcher and the notifier.
import type { OptionNames } from '../domain/option-names.js';
import type { Clock } from '../domain/clock.js';
import { createRetryPolicy } from '../domain/retry-policy.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/index.js';
import { createDispatcher } from './dispatcher.js';
import { createNotifier } from './notifier.js';
import { createHttpSender, type Sender } from './sender.js';
import { createWebhookService } from './service.js';
import { createTrigger } from './trigger.js';
import { createTestEvents } from './test-event.js';
import type { SessionService } from '../sessions/service.js';
import { createViewService } from './views.js';

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookSystemOptions {
  store: Store;
  clock: Clock;
  bus: EventBus;
  retryBaseMs?: number;
  retrySchedule?: readonly number[] | null;
  retryJitter?: boolean;
  /** Jitter's randomness (tests). */
  random?: () => number;
  webhookTimeoutMs?: number;
  smtpUrl?: string | null;
  /** Makes the test sessions of `webhooks trigger`; without it, trigger needs a session id. */
  sessions?: SessionService;
  /** Replaces the HTTP sender (tests). */
  send?: Sender;
  log?: (line: string) => void;
  /** How messages name what to do (`vtr serve`'s commands by default, or the library's helpers). */
  optionNames?: OptionNames;
}

export function createWebhookSystem(o: WebhookSystemOptions) {
  const { store, clock, bus } = o;
  const policy = createRetryPolicy({ baseMs: o.retryBaseMs, schedule: o.retrySchedule, jitter: o.retryJitter, random: o.random });
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const notifier = createNotifier({ store, clock, bus, smtpUrl: o.smtpUrl, log });
  const http = o.send ? null : createHttpSender();
  const dispatcher = createDispatcher({
    store, clock, bus, policy, notifier, log,
    send: o.send ?? http!.send,
    timeoutMs: o.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    names: o.optionNames,
  });
  // The server starts stopping (bus shutdown) before the closers run: no new attempts from then on.
  bus.onShutdown(() => {
    dispatcher.pause();
    notifier.pause();
  });
  const trigger = createTrigger({ store, clock, bus, policy, kick: dispatcher.kick });
  return {
    policy,
    notifier,
    dispatcher,
    trigger,
    views: createViewService({ store, clock, bus }),
    webhooks: createWebhookService({
      store, clock, bus, dispatcher,
      testEvent: o.sessions ? createTestEvents({ store, clock, bus, policy, sessions: o.sessions, kick: dispatcher.kick }) : undefined,
    }),
    /** Graceful stop: no new attempts, running ones finish (at most the timeout), mail sent. */
    async close(): Promise<void> {
      await dispatcher.close();
      await notifier.close();
      await http?.close();
    },
  };
}

export type WebhookSystem = ReturnType<typeof createWebhookSystem>;
