// The names of sites, saved views and rules: the same rule for the three, in the management API, the
// rules service and a state import of rules.

export const MAX_NAME_LENGTH = 200;

/** What a name of only white space is told (as an empty one or a blank `--fingerprint` are). */
export const BLANK_NAME = 'must not be empty or blank';

/** What is wrong with a name, in the words the API's validation uses; null when it fits. */
export function nameProblem(name: string): string | null {
  if (name === '') return 'must not be empty';
  if (!/\S/.test(name)) return BLANK_NAME;
  // Characters as the API's schemas count them: code points (100 emoji are 100 characters, not 200).
  return name.length > MAX_NAME_LENGTH && [...name].length > MAX_NAME_LENGTH ? `must have at most ${MAX_NAME_LENGTH} characters` : null;
}
