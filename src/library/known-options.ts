// Options objects of the library's entry points: a misspelt option (dbPath, emulatorOption) would
// silently be left at its default, so it is refused, as `vtr serve` refuses an unknown flag.

/** The first option of `opts` (set to anything but undefined) that `known` does not list. */
export function unknownOption(opts: object, known: Record<string, true>): string | undefined {
  return Object.keys(opts).find((k) => !Object.hasOwn(known, k) && (opts as Record<string, unknown>)[k] !== undefined);
}

/** "unknown option "x"; the options are a, b, c" */
export const unknownOptionMessage = (name: string, known: Record<string, true>): string =>
  `unknown option ${JSON.stringify(name)}; the options are ${Object.keys(known).join(', ')}`;
