// Timestamps in the service's wire format: UTC, ISO 8601 with microseconds, no zone suffix.

// Every row and log line gets a timestamp: the date-and-seconds part is built once per second.
let headSecond = NaN;
let head = '';

export function formatMicros(us: number): string {
  const second = Math.floor(us / 1_000_000);
  if (second !== headSecond) {
    head = new Date(second * 1000).toISOString().slice(0, 19); // 2026-11-21T09:14:03
    headSecond = second;
  }
  return `${head}.${String(Math.floor(us - second * 1_000_000)).padStart(6, '0')}`;
}

/** The wire format (zone-less UTC, microseconds) or any ISO string, to "YYYY-MM-DD HH:MM:SS UTC". */
export function utcText(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})/.exec(iso);
  if (!m) return iso;
  // A zone other than UTC (not written by the emulator) is converted first.
  if (/[+-]\d{2}:?\d{2}$/.test(iso)) {
    const d = new Date(iso);
    if (!Number.isNaN(d.getTime())) return utcText(d.toISOString());
  }
  return `${m[1]} ${m[2]} UTC`;
}

export function formatMillis(ms: number): string {
  return formatMicros(Math.floor(ms) * 1000);
}

/**
 * Parses the wire format (or any ISO string; zone-less means UTC) to epoch ms, or null. A time as
 * vtr shows it to a person (`2026-11-25 21:03:04 UTC`, `(emulated)` after it or not) reads too, so
 * it can be pasted back.
 */
export function parseTimestamp(text: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?))?(Z|[+-]\d{2}:?\d{2}| ?UTC(?: \(emulated\))?)?$/i.exec(text.trim());
  if (!m) return null;
  const time = m[2] ?? '00:00:00';
  const [hms, frac = ''] = time.split('.');
  const zone = m[3] && /^[+-]/.test(m[3]) ? m[3] : 'Z';
  const base = Date.parse(`${m[1]}T${hms.length === 5 ? `${hms}:00` : hms}.${frac.padEnd(3, '0').slice(0, 3)}${zone}`);
  if (Number.isNaN(base)) return null;
  // Date.parse rolls 2026-02-30 over into March: a date counts only if it reads back as written.
  return new Date(Date.parse(`${m[1]}T00:00:00Z`)).toISOString().slice(0, 10) === m[1] ? base : null;
}

/** The wire format (`2026-11-21T09:14:03.123456`, UTC) to epoch microseconds, or null. */
export function parseMicros(text: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{6})$/.exec(text);
  const seconds = m ? Date.parse(`${m[1]}Z`) : NaN;
  return m && !Number.isNaN(seconds) ? seconds * 1000 + Number(m[2]) : null;
}

/**
 * A time as a person writes it ("2026-11-26", "2026-11-26 10:00", "…T10:00:00.5Z", "…+02:00") in the
 * wire format (UTC, microseconds), or null when it is not a real time.
 */
export function wireTimestamp(text: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(text.trim());
  if (!m) return null;
  const [, date, hh = '00', mm = '00', ss = '00', frac = '', zone = 'Z'] = m;
  const written = `${date}T${hh}:${mm}:${ss}`;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const ms = Date.parse(`${written}${offset}`);
  if (Number.isNaN(ms)) return null;
  // Date.parse rolls 2026-02-30 over into March: a time counts only if it reads back as written.
  if (new Date(Date.parse(`${written}Z`)).toISOString().slice(0, 19) !== written) return null;
  return `${new Date(ms).toISOString().slice(0, 19)}.${frac.padEnd(6, '0')}`;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** "2s", "500ms", "1h30m", "3d" → milliseconds; a bare number means seconds. Null when malformed. */
export function parseDuration(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    total += Number(m[1]) * UNITS[m[2]];
    matched = re.lastIndex;
  }
  return matched === t.length && matched > 0 ? Math.round(total) : null;
}

/** `ms` to the millisecond, in units parseDuration reads back exactly (`59m57.999s`): for a command to run. */
export function formatDurationExact(ms: number): string {
  const parts: string[] = [];
  let rest = Math.round(ms);
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000]] as const) {
    const n = Math.floor(rest / size);
    if (n) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  if (rest || parts.length === 0) parts.push(`${rest / 1000}s`);
  return parts.join('');
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${Number.isInteger(s) ? s : s.toFixed(1)}s`;
  const parts: string[] = [];
  let rest = Math.round(s);
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['m', 60], ['s', 1]] as const) {
    const n = Math.floor(rest / size);
    if (n) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.join('');
}

/** What an import into a system clock that is behind the file's exported_at means, and the way out. */
export function behindNote(ms: number): string {
  return `this file was exported ${formatDuration(ms)} ahead of this emulator's system clock: its sessions and scheduled webhook attempts lie in the future until then, and a system clock cannot move. To carry on from the file's time, serve with --clock manual or --clock frozen and import it there.`;
}
