// What the emulator answers, checked by the client before anyone reads a field of it. An HTTP
// server that is not vtr (a web page, another API on the port, a proxy's error page) fails here
// with NotEmulatorError, named once, instead of a TypeError deep in whichever command asked.
// What a 2xx answer must be comes from the API's own schemas (src/api/answers.ts), which the
// client loads when it first checks one (zod stays out of the CLI's start-up).
import type { z } from 'zod';

export class NotEmulatorError extends Error {
  constructor(
    /** The request's URL, without its query. */
    readonly url: string,
    readonly status: number,
    /** What was wrong, e.g. `HTTP 200, text/html` or `HTTP 200, JSON without "now"`. */
    readonly detail: string,
  ) {
    super(`${url} did not answer like a vtr emulator (${detail})`);
    this.name = 'NotEmulatorError';
  }
}

function typeOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeOf(v) === 'object';
const article = (t: string) => (t === 'array' ? 'a list' : /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);

/** The type the first failing check of an issue wanted (a union: its first branch's). */
function expectedOf(issue: z.core.$ZodIssue): string | null {
  if (issue.code === 'invalid_type') return issue.expected;
  if (issue.code === 'invalid_union') return issue.errors[0]?.[0] ? expectedOf(issue.errors[0][0]) : null;
  return null;
}

/** What is wrong with `data` for `schema`, in a user's words ("" when nothing is). */
function mismatch(data: unknown, schema: z.ZodType): string {
  const r = schema.safeParse(data);
  if (r.success) return '';
  const issue = r.error.issues[0];
  const path = issue.path;
  const want = expectedOf(issue);
  if (path.length === 0) return `JSON ${typeOf(data)} where ${want === 'array' ? 'a list' : 'an object'} was expected`;
  if (Array.isArray(data) && path.length === 1 && want === 'object') return 'a JSON list of something other than objects';
  let value: unknown = data;
  for (const key of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
  const name = path.map(String).join('.');
  if (value === undefined) return `JSON without "${name}"`;
  if (want) return `JSON whose "${name}" is ${article(typeOf(value))}, not ${article(want)}`;
  return `JSON whose "${name}" is ${JSON.stringify(value).slice(0, 60)} (${issue.message})`;
}

export interface Answer {
  /** The request's URL, without its query. */
  url: string;
  status: number;
  contentType: string;
  text: string;
}

const CODE_PHRASE = 'an error without the emulator\'s {code, message}';

/**
 * The decoded answer, or what the server said went wrong: a 2xx answer must be JSON (of `schema`, when
 * given); any other status must carry the emulator's `{code, message}`, and then comes back as
 * `{ error }` for the caller to throw as its ApiError. Anything else throws NotEmulatorError.
 */
export function decodeAnswer(a: Answer, schema: z.ZodType | null): { data: unknown } | { error: Record<string, unknown> & { code: string; message: string } } {
  const type = a.contentType.split(';')[0].trim().toLowerCase() || 'no content-type';
  let data: unknown;
  let json = false;
  try {
    data = JSON.parse(a.text);
    json = true;
  } catch {
    // not JSON: below
  }
  const fail = (what: string): never => {
    throw new NotEmulatorError(a.url, a.status, `HTTP ${a.status}, ${what}`);
  };
  if (a.status < 200 || a.status >= 300) {
    if (!json) fail(a.text ? type : 'an empty body');
    if (isObject(data) && typeof data.code === 'string' && typeof data.message === 'string') {
      return { error: data as Record<string, unknown> & { code: string; message: string } };
    }
    fail(CODE_PHRASE);
  }
  if (!json) fail(a.text ? type : 'an empty body');
  if (schema) {
    const wrong = mismatch(data, schema);
    if (wrong) fail(wrong);
  }
  return { data };
}
