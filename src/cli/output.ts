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
// Values typed by visitors (custom events, utm_source, a referrer) or anyone (names) may carry control
// characters: shown escaped, so a value cannot clear the screen, set the title or fake a line. The
// colour (SGR) sequences renderers add themselves pass.
const CONTROL = /\x1b\[[0-9;]*m|[\x00-\x1f\x7f-\x9f]/g;
const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
export const printable = (s: string): string =>
  s.replace(CONTROL, (m) => (m.length > 1 ? m : ESCAPES[m] ?? `\\u${m.charCodeAt(0).toString(16).padStart(4, '0')}`));
const cell = (v: unknown): string => (typeof v === 'string' && WIRE_TIME.test(v) ? `${utcText(v)}${emulated ? ' (emulated)' : ''}` : printable(String(v)));

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

/** A plain aligned table (no colour codes in cell widths). */
export function table(headers: string[], rows: Array<Array<string | number | boolean | null | undefined>>): string {
  const cells = rows.map((r) => r.map((v) => (v == null ? '-' : cell(v))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const line = (r: string[]) => r.map((v, i) => (i === r.length - 1 ? v : v.padEnd(widths[i]))).join('  ');
  return [line(headers), ...cells.map(line)].join('\n');
}

/** "key: value" lines, keys aligned. */
export function keyValues(entries: Array<[string, unknown]>): string {
  const width = Math.max(...entries.map(([k]) => k.length));
  return entries
    .map(([k, v]) => `${`${k}:`.padEnd(width + 1)} ${v == null ? '-' : Array.isArray(v) ? (v.length ? printable(v.join(', ')) : '-') : cell(v)}`)
    .join('\n');
}

/** "1 page view", "3 page views": a count with its noun. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
