// The one --json helper: data goes to stdout as exactly one JSON document, or as readable text.
import type { CliContext } from './context.js';
import { utcText } from './time-display.js';

// A bare API timestamp (zone-less UTC) in human output names its zone: "2026-11-21 09:14:03 UTC".
const WIRE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z?$/;
// Set once an answer says the emulator's clock is manual or frozen: its times are then emulated.
let emulated = false;
export function setEmulatedTimes(on: boolean): void {
  emulated = on;
}
// Values typed by visitors (custom events, utm_source, a referrer, a user agent) or anyone (names)
// may carry control characters: shown escaped, ESC of a colour sequence too, so a value can neither
// clear the screen, set the title, fake a line or recolour what follows, nor reorder it (bidi controls).
// Colour is the renderer's to add, around text already made printable (`styled`).
const CONTROL = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
export const printable = (s: string): string => s.replace(CONTROL, (m) => ESCAPES[m] ?? `\\u${m.charCodeAt(0).toString(16).padStart(4, '0')}`);
/** Text of several lines (a mail's body) made printable line by line: its line breaks stay line breaks. */
export const printableLines = (s: string): string => s.split('\n').map(printable).join('\n');

/** Text a renderer coloured itself: table and keyValues show it as it is, aligned on what it shows. */
export class Styled {
  constructor(readonly text: string) {}
  // The colour sequences chalk writes take no room on the screen.
  get width(): number {
    return this.text.replace(/\x1b\[[0-9;]*m/g, '').length;
  }
}
export const styled = (text: string): Styled => new Styled(text);

const cell = (v: unknown): string | Styled =>
  v instanceof Styled ? v : typeof v === 'string' && WIRE_TIME.test(v) ? `${utcText(v)}${emulated ? ' (emulated)' : ''}` : printable(String(v));
const text = (c: string | Styled): string => (c instanceof Styled ? c.text : c);
const width = (c: string | Styled | undefined): number => (c instanceof Styled ? c.width : c?.length ?? 0);

export function printJson(ctx: CliContext, data: unknown): void {
  ctx.io.stdout.write(`${JSON.stringify(data, null, ctx.io.stdout.isTTY ? 2 : 0)}\n`);
}

/** With --json prints `data`; otherwise prints what `human()` renders (a string or lines). */
export function output(ctx: CliContext, data: unknown, human: () => string | string[]): void {
  if (ctx.config.json) return printJson(ctx, data);
  const text = human();
  const lines = Array.isArray(text) ? text.join('\n') : text;
  if (lines) ctx.io.stdout.write(lines.endsWith('\n') ? lines : `${lines}\n`);
}

/** An aligned table; values are data (escaped) unless `styled`. */
export function table(headers: string[], rows: Array<Array<string | number | boolean | Styled | null | undefined>>): string {
  const cells = rows.map((r) => r.map((v) => (v == null ? '-' : cell(v))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => width(r[i]))));
  const line = (r: Array<string | Styled>) => r.map((v, i) => (i === r.length - 1 ? text(v) : text(v) + ' '.repeat(Math.max(0, widths[i] - width(v))))).join('  ');
  return [line(headers), ...cells.map(line)].join('\n');
}

/** "key: value" lines, keys aligned. */
export function keyValues(entries: Array<[string, unknown]>): string {
  const keyWidth = Math.max(...entries.map(([k]) => k.length));
  return entries
    .map(([k, v]) => `${`${k}:`.padEnd(keyWidth + 1)} ${v == null ? '-' : Array.isArray(v) ? (v.length ? printable(v.join(', ')) : '-') : text(cell(v))}`)
    .join('\n');
}

/** "1 page view", "3 page views": a count with its noun. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
