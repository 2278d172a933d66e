// The library's public shapes: what startEmulator takes and answers (re-exported by src/index.ts).
import type { ClockMode } from '../domain/clock.js';
import type { ApiClient } from '../client/api-client.js';
import type { Helpers } from './helpers.js';

// Each option also takes undefined, read as left out (`{ db: process.env.DB }`), as it is at run time.
export interface StartEmulatorOptions {
  /** SQLite file; default in memory (nothing kept). */
  db?: string | undefined;
  /** Default 0: a free port. */
  port?: number | undefined;
  /** Default `127.0.0.1`. Any other address needs `adminToken`, as `vtr serve --host` does. */
  host?: string | undefined;
  /** Require `Authorization: Bearer <adminToken>` on the management API and console (`emu.client` and the helpers send it). */
  adminToken?: string | undefined;
  /**
   * Default true. `false`: no port at all; answer only through `emu.fetch` (and the helpers), as
   * `vtr/msw` does.
   */
  listen?: boolean | undefined;
  /** 'system' (default), 'frozen' (a test clock: moves only with clock.advance/set), or 'manual' (real time plus an offset). */
  clock?: ClockMode | undefined;
  retryBaseMs?: number | undefined;
  retrySchedule?: readonly number[] | undefined;
  retryJitter?: boolean | undefined;
  webhookTimeoutMs?: number | undefined;
  smtpUrl?: string | undefined;
  /**
   * SQLite's synchronous setting for a `db` file: 'normal' (default; a commit survives a crash of
   * the process, the last ones may be lost on a power cut) or 'full' (an fsync per commit).
   */
  sync?: 'normal' | 'full' | undefined;
}

export interface EmulatorClock {
  now(): string;
  mode: ClockMode;
  /** Frozen or manual clock: move forward ("5m", with its unit, or a number of ms); deliveries due on the way run, in order, before it resolves. */
  advance(duration: string | number): Promise<void>;
  /** Jumps forward to an ISO time or a Date. */
  set(timestamp: string | Date): Promise<void>;
}

/** `emu.site`: the default site's id, keys and an access token (followed through a reset, a state load, a key rotation). */
export interface EmulatorSite {
  siteId: string;
  siteKey: string;
  secretKey: string;
  accessToken: string;
}

/** The typed helpers (`emu.sessions`, `emu.check`, `emu.webhooks`, ...). */
export type EmulatorHelpers = Helpers;

export interface RunningEmulator extends EmulatorHelpers {
  /** Public API base, e.g. http://127.0.0.1:53124/api/v1 (http://127.0.0.1/api/v1 with `listen: false`). */
  baseUrl: string;
  site: EmulatorSite;
  clock: EmulatorClock;
  /** A raw client with the default site's credentials. */
  client: ApiClient;
  /** Answers a request in-process, exactly as over HTTP (no socket); a relative URL is from the emulator's origin (`/api/v1/...`), not from baseUrl. */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Empties all state; the default site comes back with the same keys and token. */
  reset(): Promise<void>;
  close(): Promise<void>;
}
