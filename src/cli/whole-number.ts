// Whole numbers typed on the command line: digits only. Number() alone would read "" (a shell
// variable left unset) or blanks as 0, "0x10" as 16 and "1e3" as 1000.
import { UsageError } from './errors.js';

/** `text` as a whole number from `min` to `max`, else a usage error naming `flag`. */
export function wholeNumber(flag: string, text: string, min: number, max: number): number {
  const n = /^\s*-?\d{1,16}\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${flag}: "${text}" must be a whole number from ${min} to ${max}`);
  return n;
}
