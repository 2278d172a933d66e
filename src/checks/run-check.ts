// The visitor check (`POST /api/v1/event`): runs the per-field checks, the probe rules, adds up the
// risks, records the check, and records what it learned about the visitor on the probe's session.
import type { Clock } from '../domain/clock.js';
import type { CountryLookup } from '../domain/ip-intel.js';
import type { RiskLevel } from '../domain/session.js';
import type { Site } from '../domain/site.js';
import { newId } from '../domain/ids.js';
import { formatMicros } from '../domain/time.js';
import { RISK_LABELS, riskLevelOf } from '../domain/risk.js';
import { ipAllowed } from '../domain/ip-allowlist.js';
import { VtrError, unknownCursor } from '../domain/errors.js';
import type { EventBus } from '../events/bus.js';
import type { Store, CheckSession, CheckSessionRecord } from '../store/index.js';
import type { SessionService } from '../sessions/service.js';
import { checkIp, ipRisks, type IpCheck } from './ip.js';
import { checkEmail, type EmailCheck } from './email.js';
import { checkPhoneWithBytes, type PhoneCheck } from './phone.js';
import { checkAddress, type AddressCheck, type AddressInput } from './address.js';
import { memoKey, memoized } from './memo.js';
import { checkProbe, createDeviceSections, type DeviceCheck } from './probe.js';

/** The request body minus `secret_key`; null and absent mean "not sent". */
export interface CheckInput {
  probe_id?: string | null;
  ip?: string | null;
  email?: string | null;
  name?: string | null;
  phone?: string | null;
  address?: AddressInput | null;
}

export interface CheckResult {
  id: string;
  created_at: string;
  session_id: string | null;
  risk_level: RiskLevel;
  risks: string[];
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

/** Known labels in RISK_LABELS order (most severe first), then unknown ones; no duplicates. */
export function orderRisks(labels: Iterable<string>): string[] {
  const set = new Set(labels);
  const known: string[] = RISK_LABELS.filter((l) => set.has(l));
  return [...known, ...[...set].filter((l) => !known.includes(l))];
}

export interface CheckServiceDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  sessions: SessionService;
  countryOf?: CountryLookup;
}

type Section<T> = { value: T | null; bytes: Buffer };
const NO_SECTION = { value: null, bytes: Buffer.from('null') } as const;
// The answer's text after the device section: each section's key, then the closing brace.
const AFTER_DEVICE = [',"ip":', ',"email":', ',"phone":', ',"address":', '}'].map((t) => Buffer.from(t));

/**
 * JSON.stringify(result) as UTF-8, from its head and the sections' remembered bytes (the same
 * bytes: test/checks/run-check-json.test.ts). Assembled as bytes: it is stored and sent as such.
 */
function answerBytes(r: CheckResult, device: Buffer, ip: Buffer, email: Buffer, phone: Buffer, address: Buffer): Buffer {
  const head = `{"id":${JSON.stringify(r.id)},"created_at":${JSON.stringify(r.created_at)},"session_id":${JSON.stringify(r.session_id)},`
    + `"risk_level":${JSON.stringify(r.risk_level)},"risks":${JSON.stringify(r.risks)},"device":`;
  const sections = [device, ip, email, phone, address];
  let size = Buffer.byteLength(head);
  for (let i = 0; i < 5; i++) size += sections[i].length + AFTER_DEVICE[i].length;
  const out = Buffer.allocUnsafe(size);
  let at = out.write(head, 0);
  for (let i = 0; i < 5; i++) {
    at += sections[i].copy(out, at);
    at += AFTER_DEVICE[i].copy(out, at);
  }
  return out;
}

export function createCheckService({ store, clock, bus, sessions, countryOf }: CheckServiceDeps) {
  // This service's country database is part of the answer, so its IP memo is its own.
  const deviceSection = createDeviceSections();
  const ipSection = memoized(2000, (input: string, site: string | null) => memoKey(site, input), (input: string, site: string | null) => checkIp(input, site, countryOf));

  /** The check, and its JSON as UTF-8 (what is stored, and what the API answers). */
  function run(site: Site, input: CheckInput): { result: CheckResult; bytes: Buffer } {
    const nowUs = clock.nowMicros();
    const sentIp = input.ip ?? null;

    let deviceS: Section<DeviceCheck> = NO_SECTION;
    let session: CheckSession | null = null;
    let record: CheckSessionRecord | null = null;
    if (input.probe_id != null) {
      const verdict = checkProbe(input.probe_id, site.site_id, (id) => store.probes.get(id));
      record = verdict.valid ? store.sessions.forCheck(verdict.probe.session_id) : null;
      session = record?.session ?? null;
      deviceS = deviceSection(input.probe_id, verdict, session, { nowUs, checkIp: sentIp });
    }
    const device = deviceS.value;

    // Without an `ip`, the probe's session tells the visitor's IP.
    const ipInput = sentIp ?? session?.ip ?? null;
    // Each section with its JSON bytes, remembered per input (see memo.ts).
    const ipS: Section<IpCheck> = ipInput != null ? ipSection.withBytes(ipInput, site.country) : NO_SECTION;
    const emailS: Section<EmailCheck> = input.email != null ? checkEmail.withBytes(input.email, input.name) : NO_SECTION;
    const phoneS: Section<PhoneCheck> = input.phone != null ? checkPhoneWithBytes(input.phone, site.country) : NO_SECTION;
    const addressS: Section<AddressCheck> = input.address != null ? checkAddress.withBytes(input.address, site.country) : NO_SECTION;
    const ip = ipS.value;
    const email = emailS.value;

    const own: string[] = [];
    if (ip?.valid) {
      own.push(...ipRisks(ip));
      if (ip.country_code && site.excluded_countries.includes(ip.country_code)) own.push('excluded_country');
    }
    if (email?.disposable) own.push('disposable_email');
    if (device && !device.valid) own.push('invalid_probe');
    if (device?.probe_ip_match === false) own.push('ip_mismatch');

    // Labels this check adds to the probe's session; none (the usual case for a repeated check) is no write.
    const labels = record && device?.valid ? newSessionLabels(record, own, device.probe_ip_match === false) : [];

    const finish = (): { result: CheckResult; bytes: Buffer } => {
      if (record && labels.length > 0) session = addToSession(record, labels);
      const risks = orderRisks([...own, ...(session?.risks ?? [])]);
      const result: CheckResult = {
        id: newId.check(nowUs),
        created_at: formatMicros(nowUs),
        session_id: session?.session_id ?? null,
        risk_level: riskLevelOf(risks, { allowlisted: ipAllowed(ip?.valid ? ip.ip : null, site.ip_allowlist) }),
        risks,
        device,
        ip,
        email,
        phone: phoneS.value,
        address: addressS.value,
      };
      const bytes = answerBytes(result, deviceS.bytes, ipS.bytes, emailS.bytes, phoneS.bytes, addressS.bytes);
      store.checks.insert({
        check_id: result.id, site_id: site.site_id, session_id: result.session_id, risk_level: result.risk_level,
        created_at: result.created_at, result: result as unknown as Record<string, unknown>, result_bytes: bytes, seq: nowUs,
      });
      if (bus.wants('check.created')) bus.publish({ type: 'check.created', data: { ...result, site_id: site.site_id } });
      return { result, bytes };
    };
    // Its own write transaction (a savepoint inside a caller's): committed when it returns, nothing
    // written when it throws, and a database locked by another process is a 503 database_busy.
    return store.tx(finish);
  }

  /** The session-relevant labels of a check that the session does not carry yet. */
  function newSessionLabels(rec: CheckSessionRecord, own: string[], mismatch: boolean): string[] {
    return own.filter((l) => (SESSION_LABELS.has(l) || (mismatch && l !== 'excluded_country')) && !rec.check_risks.includes(l));
  }

  /**
   * Adds labels to the session; answers the session as it now is. addCheckRisks re-reads the record
   * in its transaction, so a change since `rec` was read is not lost.
   */
  function addToSession(rec: CheckSessionRecord, labels: string[]): CheckSession {
    try {
      return sessions.addCheckRisks(rec.session.session_id, labels);
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
