// `vtr check`: a visitor check from flags and/or a JSON body, printed as a verdict; --fail-on turns
// the risk level into an exit code for scripts and CI.
import { readFile } from 'node:fs/promises';
import type { RiskLevel } from '../../../domain/session.js';
import type { CliContext } from '../../context.js';
import { OperationError, ThresholdReached, UsageError } from '../../errors.js';
import { fileToRead, readStdin } from '../../file-paths.js';
import { refuseEmpty } from '../../empty-flag.js';
import { ApiError } from '../../../client/api-client.js';
import { output } from '../../output.js';
import { style } from '../../style.js';
import { renderCheck, type CheckView } from './render.js';
import { parseJsonFile } from '../../../domain/json-text.js';

export interface CheckOptions {
  probeId?: string; ip?: string; email?: string; name?: string; phone?: string; externalId?: string;
  address1?: string; address2?: string; city?: string; state?: string; country?: string; postalCode?: string;
  data?: string; failOn?: string; secretKey?: string;
}

const THRESHOLDS = ['unwanted', 'suspicious', 'invalid', 'review', 'blocked'] as const;
const ORDER: Record<RiskLevel, number> = { normal: 0, unwanted: 1, suspicious: 2, invalid: 3 };

/** Why --fail-on is reached by this answer, or null: a risk level at least the threshold, or the site's decision. */
export function failOnReason(r: Pick<CheckView, 'risk_level' | 'outcome' | 'review'>, failOn: (typeof THRESHOLDS)[number]): string | null {
  if (failOn === 'blocked') return r.outcome === 'blocked' ? 'the outcome is blocked' : null;
  if (failOn === 'review') return r.review ? 'the check asks for review' : r.outcome === 'blocked' ? 'the outcome is blocked' : null;
  return ORDER[r.risk_level] >= ORDER[failOn] ? `risk level ${r.risk_level}` : null;
}

/** How an error names the --data source. */
const dataLabel = (source: string): string => `--data ${source === '-' ? '- (stdin)' : source}`;

/**
 * The --data body. A path that names nothing to read is a usage error (exit 2); a file that cannot be
 * read, or whose contents are not a JSON object, is an operation failure (exit 1), as for every file
 * vtr reads (README, exit codes).
 */
async function readData(source: string, note: (line: string) => void): Promise<Record<string, unknown>> {
  if (source !== '-') fileToRead('--data', source, 'a JSON file, or - for stdin');
  const where = dataLabel(source);
  let bytes: Buffer;
  try {
    bytes = source === '-' ? await readStdin(note) : await readFile(source);
  } catch (err) {
    throw new OperationError(`${where}: cannot read it: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = parseJsonFile(bytes);
  } catch (err) {
    throw new OperationError(`${where}: not JSON (${(err as Error).message}); give a JSON object, e.g. {"email":"a@example.com"}`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new OperationError(`${where}: the body must be a JSON object, e.g. {"email":"a@example.com"}`);
  // JSON.stringify would send a number beyond a double (1e400, read as Infinity) as null: a field
  // silently not sent. The API says "too large" for it; say so here, where the number was written.
  const huge = overflowed(data, '');
  if (huge !== null) throw new OperationError(`${where}: ${huge}: the number is too large`);
  return data as Record<string, unknown>;
}

/** The request body: --data first, each given flag over it. */
export function buildBody(o: CheckOptions, data: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { ...data };
  // --external-id goes as typed, a string ("007" keeps its zeros); an integer id goes in --data.
  const top = { probe_id: o.probeId, ip: o.ip, email: o.email, name: o.name, phone: o.phone, external_id: o.externalId };
  for (const [k, v] of Object.entries(top)) if (v !== undefined) body[k] = v;
  const addr = { address1: o.address1, address2: o.address2, city: o.city, state: o.state, country: o.country, postal_code: o.postalCode };
  if (Object.values(addr).some((v) => v !== undefined)) {
    const base = data.address && typeof data.address === 'object' && !Array.isArray(data.address) ? (data.address as Record<string, unknown>) : {};
    body.address = { ...base, ...Object.fromEntries(Object.entries(addr).filter(([, v]) => v !== undefined)) };
  }
  return body;
}

/** Fields that are checked, and every field the API reads (docs/checks.md); others it ignores. */
const CHECKED_FIELDS = new Set(['probe_id', 'ip', 'email', 'phone', 'address']);
const KNOWN_FIELDS = new Set([...CHECKED_FIELDS, 'name', 'external_id', 'secret_key']);

/** The text flags and the body fields they set. */
const FIELD_FLAGS: Array<[keyof CheckOptions, string, string]> = [
  ['probeId', '--probe-id', 'probe_id'], ['ip', '--ip', 'ip'], ['email', '--email', 'email'], ['name', '--name', 'name'],
  ['phone', '--phone', 'phone'], ['externalId', '--external-id', 'external_id'], ['address1', '--address1', 'address1'], ['address2', '--address2', 'address2'], ['city', '--city', 'city'],
  ['state', '--state', 'state'], ['country', '--country', 'country'], ['postalCode', '--postal-code', 'postal_code'],
];

/** The value at a field path the API names (`address.city`, `lines[1]`), or undefined. */
function at(value: unknown, path: string): unknown {
  for (const key of path.split(/\.|\[|\]\.?/).filter(Boolean)) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export async function run(o: CheckOptions, ctx: CliContext): Promise<void> {
  // The API takes "" and reports it invalid; from a shell it is almost always an unset variable.
  for (const [key, flag, field] of FIELD_FLAGS) refuseEmpty(flag, o[key], `leave it out to send no ${field}, or put "" in --data to send it empty`);
  if (o.failOn !== undefined && !(THRESHOLDS as readonly string[]).includes(o.failOn)) {
    throw new UsageError(`--fail-on: "${o.failOn}" is not one of ${THRESHOLDS.join(', ')}`);
  }
  const data = o.data !== undefined ? await readData(o.data, (line) => ctx.info(line)) : {};
  const body = buildBody(o, data);
  // A secret_key in --data counts unless --secret-key / VTR_SECRET_KEY or an explicit --site says
  // otherwise: flags override the file's fields. VTR_SITE does not (`vtr exec` always sets it).
  const siteFlag = ctx.config.siteFrom === '--site' && !!ctx.config.site;
  const keyOverridden = !!ctx.config.secretKey || siteFlag;
  // A secret_key that is no key (5, "", null) would silently fall back to the default site's key.
  if ('secret_key' in data && !keyOverridden && (typeof data.secret_key !== 'string' || data.secret_key.trim() === '')) {
    throw new OperationError(`${dataLabel(o.data!)}: secret_key must be a site's secret key (a string, sk_...), not ${JSON.stringify(data.secret_key)}; fix it, or remove it to use the default site's key`);
  }
  const keyInData = typeof data.secret_key === 'string' && !keyOverridden;
  const client = await ctx.client({ secretKey: !keyInData });
  const result = await client.check<CheckView>(body).catch((err: unknown) => {
    // A bad field the file gave (not a flag over it): name the file, as its other errors do.
    const field = err instanceof ApiError && err.status === 400 && typeof err.body.field === 'string' ? err.body.field : '';
    const fromData = field !== '' && at(data, field) !== undefined && at(data, field) === at(body, field);
    if (fromData) throw new OperationError(`${dataLabel(o.data!)}: ${(err as Error).message} (HTTP 400, ${(err as ApiError).code})`);
    // The key that was refused is the file's: name it, not the --secret-key the usual hint names.
    if (!keyInData || !(err instanceof ApiError && err.status === 401 && err.code === 'unauthorized')) throw err;
    const where = o.data === '-' ? 'the JSON on stdin (--data -)' : `${o.data} (--data)`;
    throw new OperationError(`${err.message} (HTTP 401, unauthorized). Check secret_key in ${where}; --secret-key or VTR_SECRET_KEY, when given, is sent instead of it.`);
  });
  output(ctx, result, () => renderCheck(result, style(ctx), body));
  // Allowed by the API (every field is optional), but from the command line almost always a slip.
  // A wrong file (a state export) or misspelt fields ("ip_address") give a check of nothing too.
  const ignored = Object.keys(body).filter((k) => !KNOWN_FIELDS.has(k));
  if (ignored.length && !Object.keys(body).some((k) => CHECKED_FIELDS.has(k))) {
    const shown = ignored.length > 5 ? `${ignored.slice(0, 5).join(', ')}, ...` : ignored.join(', ');
    ctx.info(`Nothing was given to check: the fields of --data ${o.data} (${shown}) are not check fields, and the API ignores them; give ip, email, phone, probe_id or address (vtr check --help)`);
  } else if (!Object.keys(body).some((k) => k !== 'secret_key')) {
    ctx.info('Nothing was given to check, so every section is null: pass --ip, --email, --phone, --probe-id, an address or --data (vtr check --help).');
  }
  const reason = o.failOn ? failOnReason(result, o.failOn as (typeof THRESHOLDS)[number]) : null;
  if (reason) throw new ThresholdReached(`${reason}: reached --fail-on ${o.failOn}`);
}

/** The path of the first number in `value` that JSON parsing read as ±Infinity, or null. */
function overflowed(value: unknown, path: string): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path || '(the body)';
  if (!value || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    const found = overflowed(v, Array.isArray(value) ? `${path}[${k}]` : path ? `${path}.${k}` : k);
    if (found !== null) return found;
  }
  return null;
}
