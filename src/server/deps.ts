import type { Hono } from 'hono';
import type { Clock } from '../domain/clock.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/index.js';
import type { SessionService } from '../sessions/service.js';
import type { SiteService } from '../sites/service.js';

export interface ServerConfig {
  version: string;
  /** When set, the management API and console require `Authorization: Bearer <adminToken>`. */
  adminToken?: string | null;
  /** Requests per second per client on the public API (429 above). */
  rateLimit?: number | null;
}

/** Everything the HTTP layer needs, built by the composition root (src/emulator.ts). */
export interface AppDeps {
  config: ServerConfig;
  clock: Clock;
  bus: EventBus;
  store: Store;
  sites: SiteService;
  sessions: SessionService;
  /** Runs after `clock advance/set`: every delivery that became due runs before the answer. */
  afterClockMove?: () => Promise<void>;
  /** Extra route groups contributed by other subsystems (checks, webhooks, console, ...). */
  extensions?: Array<(app: Hono, deps: AppDeps) => void>;
}
