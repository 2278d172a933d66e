// `vtr sessions simulate`: plays a seeded plan (simulate-plan.ts) through the agent's own path
// (recordPageView, addCustomEvent), many sessions per transaction, and sums up what came out.
import type { Clock } from '../domain/clock.js';
import type { Session } from '../domain/session.js';
import type { Site } from '../domain/site.js';
import { newId } from '../domain/ids.js';
import type { SessionService } from './service.js';
import { planSessions, seedOf, type PlannedSession } from './simulate-plan.js';
import { realTimers } from '../domain/timers.js';

/** Sessions per transaction: large enough to be fast, small enough to let other requests in between. */
const BATCH = 2000;

export interface SimulateOptions {
  count: number;
  seed?: string | number;
  /** The sessions start over this many seconds, ending now (default one day). */
  spanSeconds?: number;
}

export interface SimulateSummary {
  site_id: string;
  count: number;
  seed: number;
  page_views: number;
  custom_events: number;
  returning_visitors: number;
  duration_ms: number;
  sessions_per_second: number;
  by_channel: Record<string, number>;
  by_risk_level: Record<string, number>;
  by_engagement_level: Record<string, number>;
  by_device_type: Record<string, number>;
  by_country: Record<string, number>;
  /** Newest first, at most 5: something to look at (`vtr session get`). */
  sample_session_ids: string[];
}

const zero = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, 0]));
const bump = (m: Record<string, number>, k: string | null) => void (m[k ?? 'unknown'] = (m[k ?? 'unknown'] ?? 0) + 1);

export async function simulateSessions(
  deps: { clock: Clock; sessions: SessionService },
  site: Site,
  opts: SimulateOptions,
): Promise<SimulateSummary> {
  const started = realTimers.monotonic();
  const seed = opts.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : seedOf(opts.seed);
  const spanS = opts.spanSeconds ?? 86_400;
  const stepS = spanS / Math.max(opts.count, 1);
  const plan = planSessions(seed, opts.count, stepS);
  let i = 0;
  // Fresh fingerprints per run: the same seed gives the same traffic, never "returning" across runs.
  const fingerprints = new Map<number, string>();
  const endUs = deps.clock.nowMicros();
  // The last session may last ~25 minutes; all of it stays in the past.
  const startUs = endUs - spanS * 1_000_000 - 30 * 60 * 1_000_000;

  const summary: SimulateSummary = {
    site_id: site.site_id, count: opts.count, seed, page_views: 0, custom_events: 0, returning_visitors: 0,
    duration_ms: 0, sessions_per_second: 0,
    by_channel: zero(['paid', 'other', 'referral', 'direct']),
    by_risk_level: zero(['normal', 'unwanted', 'suspicious', 'invalid']),
    by_engagement_level: zero(['bounced', 'normal', 'engaged', 'converted']),
    by_device_type: zero(['computer', 'mobile', 'tablet', 'unknown']),
    by_country: {},
    sample_session_ids: [],
  };

  while (i < opts.count) {
    const finals = deps.sessions.batch(() => {
      const out: Session[] = [];
      for (const end = Math.min(i + BATCH, opts.count); i < end; i++) {
        const p = plan.next().value as PlannedSession;
        let fp = fingerprints.get(p.visitor);
        if (!fp) fingerprints.set(p.visitor, (fp = newId.fingerprint()));
        const t0 = startUs + Math.floor(i * stepS * 1_000_000);
        const base = { user_agent: p.userAgent, ip: p.ip, language: p.language, timezone: p.timezone, fingerprint: fp };
        let session: Session | null = null;
        for (const v of p.views) {
          const atUs = t0 + v.atS * 1_000_000;
          const pv = { ...base, url: v.url, referrer: v.referrer };
          session = deps.sessions.recordPageView(site, pv, session
            ? { atUs, ping: v.ping, sessionId: session.session_id }
            : { atUs, newSession: true }).session;
          if (!v.ping) summary.page_views++;
        }
        for (const e of p.events) {
          session = deps.sessions.addCustomEvent(session!.session_id, site.site_id, e.name, e.value, { atUs: t0 + e.atS * 1_000_000 + 1 });
          summary.custom_events++;
        }
        out.push(session!);
      }
      return out;
    });
    for (const s of finals) {
      bump(summary.by_channel, s.channel);
      bump(summary.by_risk_level, s.risk_level);
      bump(summary.by_engagement_level, s.engagement_level);
      bump(summary.by_device_type, s.device_type);
      bump(summary.by_country, s.country_code);
      if (s.returned) summary.returning_visitors++;
    }
    if (i >= opts.count) summary.sample_session_ids = finals.slice(-5).reverse().map((s) => s.session_id);
    // Let other requests (and the event stream) through between batches.
    await new Promise((r) => realTimers.setImmediate(r));
  }
  summary.by_country = Object.fromEntries(Object.entries(summary.by_country).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  summary.duration_ms = Math.round(realTimers.monotonic() - started);
  summary.sessions_per_second = Math.round(opts.count / Math.max(summary.duration_ms / 1000, 0.001));
  return summary;
}
