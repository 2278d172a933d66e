// The names of sites, saved views and rules: the same rule for the three, in the management API, the
// rules service and a state import of rules (which also takes what older versions let in).

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

/** NUL, line breaks, tabs and the other C0/C1 controls, and the Unicode line separators. */
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const CONTROL_CHARACTERS = new RegExp(`${CONTROL_CHARACTER.source}+`, 'g');

export const NO_CONTROL_CHARACTERS = 'must not contain control characters (line breaks, tabs, NUL)';

/**
 * Bidi embeddings, overrides and isolates: invisible, they reorder what a terminal or a page shows
 * after them (a name "x\u202Eexe.pdf" reads "xfdp.exe"). The marks U+200E/U+200F, which RTL names
 * use to set their direction and which reorder nothing, stay allowed.
 */
export const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

export const NO_BIDI_CONTROLS = 'must not contain bidirectional controls (U+202A–U+202E, U+2066–U+2069): they reorder the text shown after them';

/** Control characters or bidi controls in a name, worded for the API; null when there are none. */
export function nameCharacterProblem(name: string): string | null {
  if (CONTROL_CHARACTER.test(name)) return NO_CONTROL_CHARACTERS;
  return BIDI_CONTROL.test(name) ? NO_BIDI_CONTROLS : null;
}

/**
 * nameProblem, and control characters: a name is one line, shown in lists, logs and mail subjects.
 * Only new names are held to it: exports made before it may hold such names and still import.
 */
export function newNameProblem(name: string): string | null {
  return nameProblem(name) ?? nameCharacterProblem(name);
}

const BIDI_CONTROLS = new RegExp(BIDI_CONTROL.source, 'g');

/** Text made into a name on one line: each run of control characters becomes a space, bidi controls go. */
export function oneLine(text: string): string {
  return text.replace(CONTROL_CHARACTERS, ' ').replace(BIDI_CONTROLS, '');
}
