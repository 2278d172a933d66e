// What every management route (`/_vtr/api/...`) shares: its tag and security, its error answers,
// and the id, paging and filter parameters its lists take.
import * as z from 'zod';
import { ErrorBody } from '../common.js';
import { BLANK_NAME, MAX_NAME_LENGTH, nameCharacterProblem } from '../../domain/names.js';
import { errorHeaders, json } from '../declare.js';
import { wholeNumberOf } from '../../domain/whole-number.js';

export const MANAGEMENT_TAG = 'management';

/**
 * The admin token is needed only when the emulator was started with one (`--admin-token`); without
 * it the API answers only to loopback Host names, with no credential (`{}`: none needed).
 */
export const MANAGEMENT_SECURITY: Array<Record<string, string[]>> = [{ adminToken: [] }, {}];

export const ManagementError = ErrorBody.meta({
  id: 'ManagementError',
  description: 'Every error of the management API: `code` (see each status), `message` in plain words; a refused field is also named in `field`',
});

const FAILURES = {
  400: 'A bad body, query parameter or filter, or a query parameter the path does not take (`invalid_json`, `invalid_request`, `invalid_filter`); `message` names the field, and a filter error its position',
  401: 'Only with `vtr serve --admin-token`: the admin token is missing or wrong (`unauthorized`)',
  403: '`forbidden`: a change sent by another web page (Origin, Sec-Fetch-Site), or a Host name that is not loopback without an admin token; `plan_required`: webhooks need a paid site',
  404: 'No such resource (`not_found`)',
  405: 'Known path, wrong method (`method_not_allowed`, see the Allow header)',
  409: 'The change conflicts with the current state (`conflict`, `retries_in_progress`, `already_delivered`, `schema_too_new`)',
  413: 'The body is too large (`payload_too_large`)',
  415: 'A body whose Content-Type is not JSON or declares a charset other than UTF-8, or that is compressed other than as gzip, deflate or br (`unsupported_media_type`)',
  503: 'Nothing was done: the database is busy, read-only or damaged (`database_busy`, `database_read_only`, `database_corrupt`: reads too); or the emulator is stopping (`shutting_down`: a clock move it cut short says where the clock stopped)',
  507: 'Nothing was written: the disk is full (`insufficient_storage`)',
} as const;
type Failure = keyof typeof FAILURES;

const READ: Failure[] = [400, 401, 403, 405, 503];
const WRITE: Failure[] = [400, 401, 403, 405, 413, 415, 503, 507];

/** The error answers of a route: every read's, every write's when `write`, and `more`. */
export function failures(kind: 'read' | 'write', ...more: Failure[]) {
  const statuses = [...new Set([...(kind === 'read' ? READ : WRITE), ...more])].sort((a, b) => a - b);
  return Object.fromEntries(statuses.map((s) => [s, { description: FAILURES[s], content: json(ManagementError), ...errorHeaders(s) }]));
}

/**
 * A site's, saved view's or rule's name (domain/names.ts): 1 to 200 characters, not only white space,
 * one line. `params`: the wording of a value that is not a string (a change's null, nullNotAllowed).
 */
export const nameOf = (params?: Parameters<typeof z.string>[0]) => z.string(params).min(1).max(MAX_NAME_LENGTH).regex(/\S/, BLANK_NAME).superRefine((v, ctx) => {
  const problem = nameCharacterProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
export const Name = nameOf();

/** A path parameter: an id, as the resource's JSON names it. */
export const pathId = (name: string, description: string) => z.string().meta({ param: { name, in: 'path' }, description });

export const SiteParams = z.object({ site_id: pathId('site_id', 'The site (`site_id`), or `default` for the default site') });

/** A list's `?limit=` as given: a whole number from 1 to 10,000, else NaN (the schema and the handlers read it so). */
export const limitOf = (text: string): number => {
  const n = wholeNumberOf(text);
  return n >= 1 && n <= 10_000 ? n : NaN;
};

/** `?limit=`: checked as the handlers read it (a whole number from 1 to 10,000). */
export const limit = (fallback: number) =>
  z
    .string()
    .refine((t) => !Number.isNaN(limitOf(t)), 'must be a whole number from 1 to 10000')
    .optional()
    .meta({ description: `At most this many, from 1 to 10000 (default ${fallback})` });

// Given empty (a script's unset variable), these are refused rather than read as left out: an empty
// `site` would list every site's records, an empty `before` the first page again.
export const before = z.string().min(1, 'must not be empty: leave before out for the first page').optional().meta({ description: 'Paging: the items older than this id (the last of the page you have)' });
export const siteFilter = z.string().min(1, 'must not be empty: leave site out for every site').optional().meta({ description: 'Only this site (`site_id`, or `default`); an unknown site is a 404' });

/** `{deleted: true, <id field>}`: what a DELETE answers. */
export const deleted = (id: string, idField: string) =>
  z.looseObject({ deleted: z.literal(true), [idField]: z.string() }).meta({ id });

/**
 * The `error` of a field a PATCH (or a create) may leave out but not null: a client that sends every
 * field with null for "no change" (or "the default") is told so, not that a string (or value) was
 * expected. `otherwise` words every other refusal (undefined: the usual wording); `leftOut` what
 * leaving it out does.
 */
export const nullNotAllowed = (why: string, otherwise?: string, leftOut = 'to keep the current one') => ({
  error: (issue: { input?: unknown }) => (issue.input === null ? `cannot be null (${why}); leave it out ${leftOut}` : otherwise),
});
/**
 * The `error` of a field a create requires: null is said to be no value (as nullNotAllowed says it
 * for a field with a default), with what the field takes; `otherwise` words every other refusal.
 */
export const nullRequired = (why: string, wanted: string, otherwise?: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === null ? `cannot be null (${why}); required, ${wanted}` : otherwise),
});
/** What leaving a field of a new one out gives. */
export const forDefault = (value: unknown) => `for the default, ${typeof value === 'string' ? value : JSON.stringify(value)}`;
