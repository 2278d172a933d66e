// A JSON array of strings as it is stored (a session's `custom_events`), read and extended without
// parsing it: appending an event to a long session would otherwise parse and re-serialise every
// earlier one. Exact for any valid JSON array of strings; text holding an escape is parsed.

/** Whether the stored array has `value` as an element. */
export function jsonArrayHas(text: string, value: string): boolean {
  // With no backslash anywhere, no string holds an escape, so every `"` is a string's delimiter and
  // an element equal to `value` is written exactly as JSON.stringify(value), between `[`/`,` and `,`/`]`.
  if (text.includes('\\')) return parsed(text).includes(value);
  const e = JSON.stringify(value);
  if (e.includes('\\')) return false; // `value` needs an escape: no element of this text can equal it
  for (let i = text.indexOf(e); i >= 0; i = text.indexOf(e, i + 1)) {
    if (delimiter(text, i - 1, -1, '[') && delimiter(text, i + e.length, 1, ']')) return true;
  }
  return false;
}

/** The stored array with `value` appended (compact, as JSON.stringify writes it). */
export function jsonArrayAppend(text: string, value: string): string {
  const t = text.trimEnd();
  const e = JSON.stringify(value);
  if (!t.startsWith('[') || !t.endsWith(']')) return JSON.stringify([...parsed(text), value]);
  return /^\[\s*\]$/.test(t) ? `[${e}]` : `${t.slice(0, -1)},${e}]`;
}

/** From `at`, stepping by `step` over whitespace: is the first other character `,` or `end`? */
function delimiter(text: string, at: number, step: 1 | -1, end: '[' | ']'): boolean {
  let i = at;
  while (i >= 0 && i < text.length && /\s/.test(text[i])) i += step;
  return text[i] === ',' || text[i] === end;
}

function parsed(text: string): unknown[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}
