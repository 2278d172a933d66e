// `vtr sessions create`: one session built from the same page views the agent would send.
import type { Clock } from '../domain/clock.js';
import type { Session } from '../domain/session.js';
import type { Site } from '../domain/site.js';
import type { SessionService } from './service.js';

export interface SessionSpec {
  ip?: string | null;
  user_agent?: string | null;
  url?: string;
  referrer?: string | null;
  language?: string | null;
  timezone?: string | null;
  page_views?: number;
  duration?: number;
  fingerprint?: string;
  custom_events?: string[];
}

export const DEFAULT_SPEC = {
  url: 'https://example.com/',
  user_agent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  ip: '192.0.2.10',
  language: 'en-US',
};

/** Spreads `page_views` views over `duration` seconds ending now; later views reuse the path only. */
export function createSessionsFromSpec(deps: { clock: Clock; sessions: SessionService }, site: Site, spec: SessionSpec): Session {
  const views = spec.page_views ?? 1;
  const durationUs = (spec.duration ?? 0) * 1_000_000;
  const endUs = deps.clock.nowMicros();
  const startUs = endUs - durationUs;
  const base = {
    url: spec.url ?? DEFAULT_SPEC.url,
    referrer: spec.referrer ?? null,
    // An empty one (`--user-agent ""`) is no user agent, as a client that sends none.
    user_agent: spec.user_agent === undefined ? DEFAULT_SPEC.user_agent : spec.user_agent?.trim() ? spec.user_agent : null,
    ip: spec.ip === undefined ? DEFAULT_SPEC.ip : spec.ip,
    language: spec.language === undefined ? DEFAULT_SPEC.language : spec.language,
    // None by default: the session takes its IP's time zone (a reserved test range has one).
    timezone: spec.timezone ?? null,
    fingerprint: spec.fingerprint,
  };
  let { session } = deps.sessions.recordPageView(site, base, { atUs: startUs, newSession: true });
  for (let i = 1; i < views; i++) {
    const at = views === 1 ? endUs : Math.round(startUs + (durationUs * i) / (views - 1));
    // Later page views stay on the landing host, without the click id (which would start a new session).
    const url = stripQuery(base.url);
    ({ session } = deps.sessions.recordPageView(site, { ...base, url, referrer: null, fingerprint: session.fingerprint }, { atUs: at, sessionId: session.session_id }));
  }
  if (views === 1 && durationUs > 0) {
    ({ session } = deps.sessions.recordPageView(site, { ...base, fingerprint: session.fingerprint }, { atUs: endUs, ping: true, sessionId: session.session_id }));
  }
  // Events given with the spec are part of how the session was made: views see them at creation.
  for (const name of spec.custom_events ?? []) session = deps.sessions.addCustomEvent(session.session_id, site.site_id, name, null, { partOfCreation: true });
  return session;
}

function stripQuery(url: string): string {
  const i = url.search(/[?#]/);
  return i === -1 ? url : url.slice(0, i);
}
