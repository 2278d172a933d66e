// Library entry: `import { startEmulator } from 'vtr'` runs an emulator in-process for tests.
import { createEmulator, type EmulatorOptions } from './emulator.js';
import { createApiClient, type ApiClient } from './client/api-client.js';
import { parseDuration, parseTimestamp, formatMillis } from './domain/time.js';
import type { ClockMode } from './domain/clock.js';

export type { Session, RiskLevel, EngagementLevel, Channel, DeviceType } from './domain/session.js';
export type { Site, AccessToken } from './domain/site.js';
export { ApiError, ConnectionError, createApiClient, NotEmulatorError } from './client/api-client.js';
export type { ApiClient, ClientOptions } from './client/api-client.js';
export { VERSION } from './version.js';

export interface StartEmulatorOptions {
  /** SQLite file; default in memory (nothing kept). */
  db?: string;
  /** Default 0: a free port. */
  port?: number;
  host?: string;
  /** 'system' (default), 'frozen' (a test clock: moves only with clock.advance/set), or 'manual' (real time plus an offset). */
  clock?: ClockMode;
  retryBaseMs?: number;
  retrySchedule?: number[];
  retryJitter?: boolean;
  webhookTimeoutMs?: number;
  smtpUrl?: string;
}

export interface EmulatorClock {
  now(): string;
  mode: ClockMode;
  /** Frozen or manual clock: move forward ("5m", or ms); deliveries due on the way run, in order, before it resolves. */
  advance(duration: string | number): Promise<void>;
  /** Frozen or manual clock: jump forward to an ISO time. */
  set(timestamp: string): Promise<void>;
}

export interface RunningEmulator {
  /** Public API base, e.g. http://127.0.0.1:53124/api/v1 */
  baseUrl: string;
  site: { siteId: string; siteKey: string; secretKey: string; accessToken: string };
  clock: EmulatorClock;
  /** A client with the default site's credentials. */
  client: ApiClient;
  close(): Promise<void>;
}

export async function startEmulator(opts: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const emuOpts: EmulatorOptions = {
    dbPath: opts.db ?? ':memory:',
    clock: opts.clock ?? 'system',
    retryBaseMs: opts.retryBaseMs,
    retrySchedule: opts.retrySchedule ?? null,
    retryJitter: opts.retryJitter,
    webhookTimeoutMs: opts.webhookTimeoutMs,
    smtpUrl: opts.smtpUrl ?? null,
  };
  const emulator = createEmulator(emuOpts);
  const host = opts.host ?? '127.0.0.1';
  const { port } = await emulator.listen(opts.port ?? 0, host);
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}/api/v1`;
  const sites = emulator.deps.sites;
  const site = sites.defaultSite();
  const token = sites.tokens.list(site.site_id).find((t) => !t.revoked_at) ?? sites.tokens.create(site.site_id);
  // Like `vtr clock advance/set`: every delivery scheduled on the way runs at its time before it resolves.
  const move = (ms: number) => emulator.deps.advanceClock!(ms);
  return {
    baseUrl,
    site: { siteId: site.site_id, siteKey: site.site_key, secretKey: site.secret_key, accessToken: token.token },
    clock: {
      now: () => formatMillis(emulator.clock.now()),
      mode: emulator.clock.mode,
      async advance(d) {
        const ms = typeof d === 'number' ? d : parseDuration(d);
        if (ms == null) throw new Error(`not a duration: ${d}`);
        await move(ms);
      },
      async set(ts) {
        const ms = parseTimestamp(ts);
        if (ms == null) throw new Error(`not a timestamp: ${ts}`);
        await move(ms - emulator.clock.now());
      },
    },
    client: createApiClient({ baseUrl, accessToken: token.token, secretKey: site.secret_key }),
    close: () => emulator.close(),
  };
}
