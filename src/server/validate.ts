import type { z } from 'zod';
import { VtrError } from '../domain/errors.js';

/** Validates with a zod schema; the 400's message names the first bad field and what it wanted. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue.path.length ? issue.path.join('.') : 'body';
  throw new VtrError('invalid_request', `${field}: ${issue.message}`, { field });
}
