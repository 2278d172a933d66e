import type { z } from 'zod';
import { VtrError } from '../domain/errors.js';

/** Plain-words messages for the checks the schemas leave to zod's defaults (a schema's own wins). */
function plainMessage(issue: z.core.$ZodRawIssue): string | undefined {
  const what = issue.origin === 'string' ? 'characters' : issue.origin === 'array' ? 'items' : null;
  if (issue.code === 'too_small' && what) {
    return Number(issue.minimum) === 1 ? 'must not be empty' : `must have at least ${issue.minimum} ${what}`;
  }
  if (issue.code === 'too_big' && what) return `must have at most ${issue.maximum} ${what}`;
  if (issue.code === 'invalid_type') return `expected ${issue.expected === 'array' ? 'an array' : `a ${issue.expected}`}`;
  return undefined;
}

/** Validates with a zod schema; the 400's message names the first bad field and what it wanted. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  // Without parse options first: zod's compiled fast path then runs (5× faster, measured), and the
  // messages only matter when the value is refused.
  const ok = schema.safeParse(value);
  if (ok.success) return ok.data;
  const r = schema.safeParse(value, { error: plainMessage });
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    const key = [...issue.path, issue.keys[0]].join('.');
    throw new VtrError('invalid_request', `${key}: unknown field`, { field: key });
  }
  const field = issue.path.length ? issue.path.join('.') : 'body';
  throw new VtrError('invalid_request', `${field}: ${issue.message}`, { field });
}
