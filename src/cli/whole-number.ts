// Whole numbers typed on the command line, one reading for every numeric flag: digits only.
// Number() alone would read "" (a shell variable left unset) or blanks as 0, "0x10" as 16 and
// "1e3" as 1000; a leading minus is read so that -1 is told the range, not "not a number".
import { UsageError } from './errors.js';

/**
 * `text` as a whole number from `min` to `max`, else a usage error naming `flag`; `expected`
 * replaces the "must be a whole number from min to max" of the message when a flag has its own words.
 */
export function wholeNumber(flag: string, text: string, min: number, max: number, expected?: string): number {
  const n = /^-?\d{1,16}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${flag}: "${text}" ${expected ?? `must be a whole number from ${min} to ${max}`}`);
  return n;
}
