// Whole numbers typed on the command line, one reading for every numeric flag (domain/whole-number.ts).
import { wholeNumberOf } from '../domain/whole-number.js';
import { UsageError } from './errors.js';

/**
 * `text` as a whole number from `min` to `max`, else a usage error naming `flag`; `expected`
 * replaces the "must be a whole number from min to max" of the message when a flag has its own words.
 */
export function wholeNumber(flag: string, text: string, min: number, max: number, expected?: string): number {
  const n = wholeNumberOf(text);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${flag}: "${text}" ${expected ?? `must be a whole number from ${min} to ${max}`}`);
  return n;
}
