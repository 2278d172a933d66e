// The visitor check (`POST /api/v1/event`): runs the per-field checks, the probe rules, adds up the
// risks, records the check, and records what it learned about the visitor on the probe's session.
import type { Clock } from '../domain/clock.js';
import type { RiskLevel, Session } from '../domain/session.js';
import type { Site } from '../domain/site.js';
import { newId } from '../domain/ids.js';
import { formatMicros } from '../domain/time.js';
import { orderRisks, riskLevelOf } from '../domain/risk.js';
import { ipAllowed } from '../domain/ip-allowlist.js';
import { ipWithoutPort, type CountryLookup } from '../domain/ip-intel.js';
import { VtrError, unknownCursor } from '../domain/errors.js';
import type { EventBus } from '../events/bus.js';
import type { Store, SessionRecord } from '../store/index.js';
import type { SessionService } from '../sessions/service.js';
import { checkIp, ipRisks, type IpCheck } from './ip.js';
import { checkEmail, type EmailCheck } from './email.js';
import { checkPhone, type PhoneCheck } from './phone.js';
import { checkAddress, type AddressCheck, type AddressInput } from './address.js';
import { checkProbe, deviceSection, type DeviceCheck } from './probe.js';
import { actionsTaken, mergeActions, type MatchedRule, type Outcome } from '../domain/rules.js';
import type { RuleService } from '../rules/service.js';
import { emptySession } from '../sessions/service.js';
import { decideCheck } from './decision.js';

/** The request body minus `secret_key`; null and absent mean "not sent". */
export interface CheckInput {
  probe_id?: string | null;
  ip?: string | null;
  email?: string | null;
  name?: string | null;
  phone?: string | null;
  address?: AddressInput | null;
  /** The caller's own reference for the check, echoed in the answer. */
  external_id?: string | number | null;
}

export interface CheckResult {
  id: string;
  created_at: string;
  session_id: string | null;
  risk_level: RiskLevel;
  risks: string[];
  /** The site's decision (contract section 4b). */
  outcome: Outcome;
  review: boolean;
  rules: MatchedRule[];
  external_id: string | number | null;
  device: DeviceCheck | null;
  ip: IpCheck | null;
  email: EmailCheck | null;
  phone: PhoneCheck | null;
  address: AddressCheck | null;
}

/** A stored check as the management API lists it: the result plus its site. */
export type StoredCheck = CheckResult & { site_id: string };

/**
 * Labels a check writes onto the probe's session. Only what the session cannot derive itself:
 * the IP mismatch, a disposable email, and the risks of a *different* IP the visitor was seen on.
 */
const SESSION_LABELS = new Set(['ip_mismatch', 'disposable_email']);

export interface CheckServiceDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  sessions: SessionService;
  countryOf?: CountryLookup;
  /** The site's rules; without them every check is decided by its risk level alone. */
  rules?: Pick<RuleService, 'list' | 'filterOf'>;
}

export function createCheckService({ store, clock, bus, sessions, countryOf, rules }: CheckServiceDeps) {
  /** The check, recorded; what the API answers. */
  function run(site: Site, input: CheckInput): CheckResult {
    const nowUs = clock.nowMicros();
    // An `ip` with a port or in brackets (as some proxies and platforms hand it over) is read as
    // the address it carries, for every use below: the ip section, the probe match and the rules.
    const sentIp = input.ip != null ? ipWithoutPort(input.ip) : null;

    let device: DeviceCheck | null = null;
    let record: SessionRecord | null = null;
    if (input.probe_id != null) {
      const verdict = checkProbe(input.probe_id, site.site_id, (id) => store.probes.get(id));
      record = verdict.valid ? store.sessions.get(verdict.probe.session_id) : null;
      device = deviceSection(input.probe_id, verdict, record?.session ?? null, { nowUs, checkIp: sentIp, countryOf });
    }
    let session: Session | null = record?.session ?? null;

    // Without an `ip`, the probe's session tells the visitor's IP.
    const ipInput = sentIp ?? session?.ip ?? null;
    const ip = ipInput != null ? checkIp(ipInput, site.country, countryOf) : null;
    const email = input.email != null ? checkEmail(input.email, input.name) : null;
    const phone = input.phone != null ? checkPhone(input.phone, site.country) : null;
    const address = input.address != null ? checkAddress(input.address, site.country) : null;

    const own: string[] = [];
    if (ip?.valid) {
      own.push(...ipRisks(ip));
      if (ip.country_code && site.excluded_countries.includes(ip.country_code)) own.push('excluded_country');
    }
    if (email?.disposable) own.push('disposable_email');
    if (device && !device.valid) own.push('invalid_probe');
    if (device?.probe_ip_match === false) own.push('ip_mismatch');

    // Labels this check adds to the probe's session.
    const labels = record && device?.valid ? newSessionLabels(record, own, device.probe_ip_match === false) : [];

    const finish = (): CheckResult => {
      const createdAt = formatMicros(nowUs);
      const allowlisted = ipAllowed(ip?.valid ? ip.ip : null, site.ip_allowlist);
      const normalizedEmail = email?.valid ? email.normalized_email : null;
      // The check's risks and the site's decision, on the probe's session as this check leaves it.
      const decideOn = (s: Session | null) => {
        const risks = orderRisks([...own, ...(s?.risks ?? [])]);
        const riskLevel = riskLevelOf(risks, { allowlisted });
        const decision = decideCheck(store, {
          site, rules: rules?.list(site.site_id) ?? [], filterOf: (r) => rules!.filterOf(r), riskLevel, risks, allowlisted, ip,
          session: device?.valid ? s : null, email: normalizedEmail, nowUs,
          blankSession: () => emptySession(site, '', createdAt),
        });
        return { risks, riskLevel, decision };
      };
      let decided: ReturnType<typeof decideOn> | null = null;
      if (record && session && device?.valid) {
        // A check recorded on a session adds its labels and the actions its rules took (and `block`
        // for invalid traffic) in one change; none (the usual repeated check) is no write.
        const current = session;
        const taken = (s: Session) => actionsTaken((decided = decideOn(s)).decision);
        if (labels.length > 0 || mergeActions(current.actions, taken(current)).length > current.actions.length) {
          session = recordOnSession(record, labels, taken);
        }
      }
      const { risks, riskLevel, decision } = decided ?? decideOn(session);
      // Frozen: nothing changes it once made, so its JSON text is made once, for the row and the answer.
      const result: CheckResult = Object.freeze({
        id: newId.check(nowUs),
        created_at: createdAt,
        session_id: session?.session_id ?? null,
        risk_level: riskLevel,
        risks,
        outcome: decision.outcome,
        review: decision.review,
        rules: decision.rules,
        external_id: input.external_id ?? null,
        device,
        ip,
        email,
        phone,
        address,
      });
      store.checks.insert({
        check_id: result.id, site_id: site.site_id, session_id: result.session_id, risk_level: result.risk_level,
        created_at: result.created_at, result: result as unknown as Record<string, unknown>, seq: nowUs,
        fingerprint: device?.valid ? (session?.fingerprint ?? null) : null, email: normalizedEmail,
      });
      if (bus.wants('check.created')) bus.publish({ type: 'check.created', data: { ...result, site_id: site.site_id } });
      return result;
    };
    // Its own write transaction (a savepoint inside a caller's): the check and the probe's session
    // when the check changes it commit together, nothing is written when it throws, and a database
    // locked by another process is a 503 database_busy.
    return store.tx(finish);
  }

  /** The session-relevant labels of a check that the session does not carry yet. */
  function newSessionLabels(rec: SessionRecord, own: string[], mismatch: boolean): string[] {
    return own.filter((l) => (SESSION_LABELS.has(l) || (mismatch && l !== 'excluded_country')) && !rec.check_risks.includes(l));
  }

  /**
   * Records the check's labels and actions on the session; answers the session as it now is.
   * recordCheck re-reads the record in its transaction, so a change since `rec` was read is not lost.
   */
  function recordOnSession(rec: SessionRecord, labels: string[], taken: (s: Session) => readonly string[]): Session {
    try {
      return sessions.recordCheck(rec.session.session_id, labels, taken);
    } catch (err) {
      // Deleted between the lookup and the write: the check still answers.
      if (err instanceof VtrError && err.code === 'not_found') return rec.session;
      throw err;
    }
  }

  const stored = (r: { site_id: string; result: Record<string, unknown> }): StoredCheck =>
    ({ ...(r.result as unknown as CheckResult), site_id: r.site_id });

  return {
    run,
    get(checkId: string): StoredCheck | null {
      const r = store.checks.get(checkId);
      return r ? stored(r) : null;
    },
    /** Newest first; a `before` that names no check is a 400 (not the first page again). */
    list(q: { siteId?: string; sessionId?: string; limit?: number; before?: string }): StoredCheck[] {
      const before = q.before ? store.checks.cursor(q.before) : null;
      if (q.before && !before) throw unknownCursor('check', q.before);
      return store.checks.list({ siteId: q.siteId, sessionId: q.sessionId, limit: q.limit, before: before ?? undefined }).map(stored);
    },
  };
}

export type CheckService = ReturnType<typeof createCheckService>;
