// Probe rules of a visitor check (contract §3): a probe is valid only when it is well formed, known,
// and was issued to the site running the check. Pure over a lookup, so every case is unit-testable.
import { PROBE_ID_PATTERN } from '../domain/ids.js';
import { isLoopbackIp, lookupIp, type CountryLookup } from '../domain/ip-intel.js';
import { parseUserAgent } from '../domain/user-agent.js';
import type { ProbeRecord } from '../store/probes.js';
import type { Session } from '../domain/session.js';

/** A stored probe, as the check reads it. */
export type ProbeRef = ProbeRecord;

/**
 * Why a probe is not valid. Another site's probe reads as `unknown`: the answer never tells a
 * site that an id exists elsewhere (as a session of another site is a 404).
 */
export type ProbeProblem = 'empty' | 'malformed' | 'unknown';

export type ProbeVerdict = { valid: true; probe: ProbeRef } | { valid: false; problem: ProbeProblem };

export function checkProbe(probeId: string, siteId: string, find: (id: string) => ProbeRef | null): ProbeVerdict {
  const id = probeId.trim();
  if (id === '') return { valid: false, problem: 'empty' };
  if (!PROBE_ID_PATTERN.test(id)) return { valid: false, problem: 'malformed' };
  const probe = find(id);
  if (!probe || probe.site_id !== siteId) return { valid: false, problem: 'unknown' };
  return { valid: true, probe };
}

/**
 * true/false when both addresses are IPs (compared in normalised form), null when either is not.
 * Two loopback addresses match: in local development the browser may reach the emulator over
 * 127.0.0.1 and the app over ::1 (a `localhost` page), and both are this machine.
 * `countryOf` never changes the answer (only `valid` and `ip` are read): a check passes the lookup
 * its `ip` section is given, so the sent IP is parsed once, cached for both.
 */
export function probeIpMatch(probeIp: string | null, checkIp: string | null, countryOf?: CountryLookup): boolean | null {
  if (!probeIp || !checkIp) return null;
  const a = lookupIp(probeIp, countryOf);
  const b = lookupIp(checkIp, countryOf);
  if (!a.valid || !b.valid) return null;
  return a.ip === b.ip || (isLoopbackIp(a.ip) && isLoopbackIp(b.ip));
}

export interface DeviceCheck {
  success: boolean;
  valid: boolean;
  probe_id: string;
  /** Why `valid` is false: empty, malformed or unknown (also another site's probe); null when valid. */
  invalid_reason: ProbeProblem | null;
  probe_created_at: string | null;
  /** Whole minutes from the probe's page view to the check. */
  probe_mins_elapsed: number | null;
  /** null when no `ip` was sent or either address is not an IP. */
  probe_ip_match: boolean | null;
  session_id: string | null;
  fingerprint: string | null;
  returned: boolean | null;
  browser_name: string | null;
  browser_family: string | null;
  browser_version: string | null;
  os_family: string | null;
  os_version: string | null;
  device_type: string | null;
  language: string | null;
  timezone: string | null;
  user_agent: string | null;
  /** The IP the probe's page view came from. */
  probe_ip: string | null;
  bot: boolean | null;
  crawler: boolean | null;
  headless_browser: boolean | null;
}

/** Whole minutes from the probe's page view to `nowUs`. */
const minutesSince = (createdUs: number, nowUs: number) => Math.max(0, Math.floor((nowUs - createdUs) / 60_000_000));

// An echoed probe id is bounded: the check result is stored and a body may be 1 MiB.
const MAX_ECHO = 100;

/** The `device` section: from the probe's session when valid, else only the verdict. */
export function deviceSection(
  probeId: string,
  verdict: ProbeVerdict,
  session: Session | null,
  ctx: { nowUs: number; checkIp: string | null; countryOf?: CountryLookup },
): DeviceCheck {
  const base: DeviceCheck = {
    success: true, valid: false, probe_id: probeId.slice(0, MAX_ECHO), invalid_reason: null,
    probe_created_at: null, probe_mins_elapsed: null, probe_ip_match: null, session_id: null,
    fingerprint: null, returned: null, browser_name: null, browser_family: null, browser_version: null,
    os_family: null, os_version: null, device_type: null, language: null, timezone: null,
    user_agent: null, probe_ip: null, bot: null, crawler: null, headless_browser: null,
  };
  if (!verdict.valid) return { ...base, invalid_reason: verdict.problem };
  const p = verdict.probe;
  const ua = parseUserAgent(session?.user_agent ?? null);
  return {
    ...base,
    valid: true,
    probe_created_at: p.created_at,
    probe_mins_elapsed: minutesSince(p.created_us, ctx.nowUs),
    probe_ip_match: probeIpMatch(p.ip, ctx.checkIp, ctx.countryOf),
    session_id: p.session_id,
    fingerprint: session?.fingerprint ?? null,
    returned: session?.returned ?? null,
    browser_name: session?.browser_name ?? null,
    browser_family: session?.browser_family ?? null,
    browser_version: session?.browser_version ?? null,
    os_family: session?.os_family ?? null,
    os_version: session?.os_version ?? null,
    device_type: session?.device_type ?? null,
    language: session?.language ?? null,
    timezone: session?.timezone ?? null,
    user_agent: session?.user_agent ?? null,
    probe_ip: p.ip,
    // Same rule as the session's `bot` risk: headless browsers are bots.
    bot: ua.bot || ua.headless,
    crawler: ua.crawler,
    headless_browser: ua.headless,
  };
}
