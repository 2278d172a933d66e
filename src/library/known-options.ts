// Options objects of the library's entry points: a misspelt option (dbPath, emulatorOption) would
// silently be left at its default, so it is refused, as `vtr serve` refuses an unknown flag.
import { suggest } from '../domain/filter/suggest.js';

/** The first option of `opts` (set to anything but undefined) that `known` does not list. */
export function unknownOption(opts: object, known: Record<string, true>): string | undefined {
  return Object.keys(opts).find((k) => !Object.hasOwn(known, k) && (opts as Record<string, unknown>)[k] !== undefined);
}

/** "unknown option "x" (did you mean y?); the options are a, b, c": snake_case (admin_token) or a slip. */
export function unknownOptionMessage(name: string, known: Record<string, true>): string {
  const names = Object.keys(known);
  const meant = names.find((k) => k.toLowerCase() === name.replace(/[_-]/g, '').toLowerCase()) ?? suggest(name, names);
  return `unknown option ${JSON.stringify(name)}${meant ? ` (did you mean ${meant}?)` : ''}; the options are ${names.join(', ')}`;
}
