// The JSON text of a frozen object is made once and kept beside it. Frozen here means that neither
// it nor anything under it changes again (a cached session, a visitor check's result): the store
// writes the text a check's answer then sends, and an app polling a session is sent the same text
// again and again.
const texts = new WeakMap<object, string>();

/** JSON.stringify, made once per frozen object. */
export function jsonText(value: unknown): string {
  if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) texts.set(value, (text = JSON.stringify(value)));
  return text;
}
