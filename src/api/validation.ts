// A refused request is the contract's 400 `{code: 'invalid_request', message: '<field>: ...', field}`,
// the same whether a handler validates (validate) or a route declared with createRoute does (the
// app's defaultHook): both name the first bad field and what it wanted, in plain words.
import type { z } from 'zod';
import { VtrError } from '../domain/errors.js';

// zod's own English messages for the checks plainMessage words better; a schema's own message
// (e.g. 'required, a string of 1 to 100 characters') never starts like these, so it is kept.
const ZOD_DEFAULT = /^(Invalid input: expected |Invalid input$|Too small: expected |Too big: expected )/;

type Issue = Pick<z.core.$ZodIssue, 'code' | 'message' | 'path'> & Record<string, unknown>;

const typeWords = (expected: unknown) =>
  expected === 'int' ? 'a whole number' : `${/^[aeiou]/.test(String(expected)) ? 'an' : 'a'} ${String(expected)}`;

/** What a union of plain types wanted ('a string or a number'), and whether the field was missing. */
function unionWanted(issue: Issue): { words: string; missing: boolean } | undefined {
  if (issue.code !== 'invalid_union' || !Array.isArray(issue.errors)) return undefined;
  const branches = issue.errors as Issue[][];
  if (!branches.every((b) => b.length === 1 && b[0].code === 'invalid_type')) return undefined;
  const words = [...new Set(branches.map((b) => typeWords(b[0].expected)))].join(' or ');
  return { words, missing: branches.every((b) => b[0].message.endsWith('received undefined')) };
}

/** Plain words for a check a schema left to zod's default message; undefined to keep the message. */
function plainMessage(issue: Issue): string | undefined {
  const what = issue.origin === 'string' ? 'characters' : issue.origin === 'array' ? 'items' : null;
  if (issue.code === 'too_small' && what) {
    return Number(issue.minimum) === 1 ? 'must not be empty' : `must have at least ${String(issue.minimum)} ${what}`;
  }
  if (issue.code === 'too_big' && what) return `must have at most ${String(issue.maximum)} ${what}`;
  if (issue.origin === 'number' || issue.origin === 'int') {
    if (issue.code === 'too_small') return `must be ${issue.inclusive === false ? 'more than' : 'at least'} ${String(issue.minimum)}`;
    if (issue.code === 'too_big') return `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}`;
  }
  // A field left out is said to be required, not to have the wrong type.
  if (issue.code === 'invalid_type') {
    const missing = issue.message.endsWith('received undefined');
    return missing ? `required, ${typeWords(issue.expected)}` : `expected ${typeWords(issue.expected)}`;
  }
  const union = unionWanted(issue);
  if (union) return union.missing ? `required, ${union.words}` : `expected ${union.words}`;
  return undefined;
}

/** The issue to report: zod checks an integer's safe range before the schema's own bound, which says more. */
function firstIssue(error: z.ZodError): z.core.$ZodIssue {
  const first = error.issues[0];
  if (first.code !== 'too_big' && first.code !== 'too_small') return first;
  if ((first as unknown as Issue).origin !== 'int') return first;
  const path = first.path.join('.');
  return error.issues.find((i) => i.code === first.code && (i as unknown as Issue).origin === 'number' && i.path.join('.') === path) ?? first;
}

/**
 * Whether the value refused is a JSON number too large for a double (`1e400` parses as Infinity):
 * zod then says it wanted a number, itself or in one branch of a union. Said before any schema's
 * own message, which speaks of values that can be read.
 */
function overflowed(issue: Issue): boolean {
  const infinite = (i: Issue) => i.code === 'invalid_type' && i.expected === 'number' && (i.received === 'Infinity' || i.received === '-Infinity');
  if (infinite(issue)) return true;
  return issue.code === 'invalid_union' && Array.isArray(issue.errors) && (issue.errors as Issue[][]).some((b) => b.some((i) => infinite(i) && i.path.length === 0));
}

/** Whether the field an issue names is left out of `input`: its parent is there, the key is not. */
function leftOut(input: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return false;
  let parent = input;
  for (const k of path.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, k)) return false;
    parent = (parent as Record<PropertyKey, unknown>)[k];
  }
  if (parent === null || typeof parent !== 'object') return false;
  const k = path[path.length - 1];
  return !Object.hasOwn(parent, k) || (parent as Record<PropertyKey, unknown>)[k] === undefined;
}

/** What a field left out is told, whatever the schema's message for a wrong value: required, and what it takes. */
function requiredMessage(issue: Issue, message: string): string {
  if (message.startsWith('required')) return message;
  if (issue.code === 'invalid_value' && Array.isArray(issue.values)) {
    const values = issue.values.map(String);
    return values.length === 1 ? `required, ${values[0]}` : `required, one of ${values.join(', ')}`;
  }
  if (issue.code === 'invalid_type') return `required, ${typeWords(issue.expected)}`;
  const union = unionWanted(issue);
  return union ? `required, ${union.words}` : 'required';
}

/**
 * The 400 for a value a schema refused: the first issue, naming its field. Given the value, a
 * field left out of it is said to be required (an enum's own "must be one of ..." speaks of a
 * value that was sent).
 */
export function invalidRequest(error: z.ZodError, input?: unknown): VtrError {
  const issue = firstIssue(error);
  if (issue.code === 'unrecognized_keys') {
    const key = [...issue.path, issue.keys[0]].join('.');
    return new VtrError('invalid_request', `${key}: unknown field`, { field: key });
  }
  const plain = issue as unknown as Issue;
  const worded = ZOD_DEFAULT.test(issue.message) ? (plainMessage(plain) ?? issue.message) : issue.message;
  const message = overflowed(plain) ? 'the number is too large' : leftOut(input, issue.path) ? requiredMessage(plain, worded) : worded;
  const field = issue.path.length ? issue.path.join('.') : 'body';
  return new VtrError('invalid_request', `${field}: ${message}`, { field });
}

/** Validates with a zod schema; throws the contract's 400 when the value is refused. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw invalidRequest(r.error, value);
}

/**
 * A `defaultHook` for an OpenAPIHono app that mounts these declarations with `app.openapi` (vtr's
 * server mounts them with server/mount.ts and validate()): a refused request is thrown as the
 * contract's 400, for the app's one error handler to answer like any other error.
 */
export function defaultHook(result: { success: true } | { success: false; error: z.ZodError; data?: unknown }): void {
  if (!result.success) throw invalidRequest(result.error, result.data);
}
