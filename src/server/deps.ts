import type { OptionNames } from '../domain/option-names.js';
import type { Clock } from '../domain/clock.js';
import type { EventBus } from '../events/bus.js';
import type { SessionService } from '../sessions/service.js';
import type { SiteService } from '../sites/service.js';
import type { CheckService } from '../checks/run-check.js';
import type { ViewService } from '../webhooks/views.js';
import type { RuleService } from '../rules/service.js';
import type { WebhookService } from '../webhooks/service.js';
import type { RequestLogger } from '../logs/request-logger.js';
import type { StateService } from '../state/service.js';
import type { WriteQueue } from './write-queue.js';

export interface ServerConfig {
  version: string;
  /** When set, the management API and console require `Authorization: Bearer <adminToken>`. */
  adminToken?: string | null;
  /** Requests per second per client on the public API (429 above). */
  rateLimit?: number | null;
  /**
   * How the one who started the emulator names its credentials, for the messages that point at them:
   * the admin token it was given (`vtr serve --admin-token`, `startEmulator({ adminToken })`) and
   * where the site's keys are read (`vtr keys show`, `emu.site`), for 401s. Default: the CLI's.
   */
  credentials?: Pick<OptionNames, 'adminToken' | 'sendAdminToken' | 'accessToken' | 'secretKey' | 'siteKey' | 'newKeysEachStart'>;
}

/** Everything the HTTP layer needs, built by the composition root (src/emulator.ts): services, never the store. */
export interface AppDeps {
  config: ServerConfig;
  clock: Clock;
  bus: EventBus;
  sites: SiteService;
  sessions: SessionService;
  /** Visitor checks (`POST /api/v1/event`, `/_vtr/api/checks`, the demo). */
  checks: CheckService;
  /** Groups the public API's writes into shared commits; without it each commits on its own. */
  writes?: WriteQueue;
  /** Runs after `clock advance/set`: every delivery that became due runs before the answer. */
  afterClockMove?: () => Promise<void>;
  /**
   * Moves a manual clock forward by `ms` as time would pass: every attempt scheduled on the way runs
   * at its time (retries it schedules too), in order, before it resolves. Throws ClockError. Moves
   * run one after another; a function gives `ms` when the move's turn comes (`clock set`).
   */
  advanceClock?: (ms: number | (() => number)) => Promise<void>;
  /** The public-API request log (`/_vtr/api/logs`, `vtr logs`). */
  requestLog?: RequestLogger;
  /** State export/import/reset (`/_vtr/api/state`). */
  state?: StateService;
  /** Saved views (`/_vtr/api/sites/:id/views`, `/_vtr/api/views/:id`). */
  views?: ViewService;
  /** A site's rules (`/_vtr/api/sites/:id/rules`). */
  rules?: RuleService;
  /** Webhooks, their events and the notification outbox. */
  webhooks?: WebhookService;
}
