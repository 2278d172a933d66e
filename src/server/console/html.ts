// The console's one HTML builder: `html` escapes every interpolated value unless it is already Html
// (another html`` result, or raw() for trusted markup). Arrays are joined; null/undefined/false vanish.

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

export type HtmlValue = Html | string | number | boolean | null | undefined | HtmlValue[];

function render(v: HtmlValue): string {
  if (v == null || v === false) return '';
  if (v instanceof Html) return v.text;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Trusted markup (CSS, inline scripts we wrote): never pass user data here. */
export function raw(text: string): Html {
  return new Html(text);
}

/** JSON for an inline <script>: `<` escaped so no value can close the script element. */
export function scriptJson(value: unknown): Html {
  return raw(JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029'));
}

/**
 * An error message as the console shows it: its `backticked` commands as code, as the console's own
 * texts show them, rather than with literal backticks (an unpaired backtick stays as typed).
 */
export function messageHtml(message: string): Html {
  const parts = message.split('`');
  if (parts.length % 2 === 0) return html`${message}`;
  return html`${parts.map((p, i) => (i % 2 ? html`<code>${p}</code>` : p))}`;
}
