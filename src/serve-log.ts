// `vtr serve --log`: the request log's lines on stderr, written in batches (one write for each
// event-loop turn's lines, not one per line).
// The pretty format is for a person at a terminal: past MAX_PRETTY_PER_SECOND lines in a second it
// prints one line saying how many more there were, instead of thousands a second that nobody can
// read (each formatted, and written synchronously to a terminal or file: ~2 KB allocated per
// request, a tenth of a custom event's). Every entry is still in the request log, and
// `--log json` (for programs) prints every one.

export const MAX_PRETTY_PER_SECOND = 100;
const WINDOW_MS = 1_000;

/**
 * One request-log line for `serve --log`: pretty is "time UTC METHOD path status duration". Under a
 * frozen or manual clock (`emulated`) the time is the emulator's, often another day: the line gives
 * the date too and says so, as `vtr logs tail` does.
 */
export function formatLogLine(e: Record<string, unknown>, format: 'pretty' | 'json', emulated = false): string {
  if (format === 'json') return JSON.stringify(e);
  const at = String(e.created_at ?? '');
  const time = emulated ? `${at.slice(0, 23).replace('T', ' ')} UTC (emulated)` : `${at.slice(11, 23)} UTC`;
  const ms = Number(e.duration_ms ?? 0);
  return `${time} ${String(e.method).padEnd(6)} ${e.path} ${e.status} ${ms < 10 ? ms.toFixed(2) : ms.toFixed(0)}ms`;
}

function hiddenLinesNote(n: number): string {
  const s = n === 1 ? '' : 's';
  return `vtr: … ${n.toLocaleString('en-US')} more request${s} in the last second not shown here (all are in the request log: vtr logs list; --log json prints every one)`;
}

/** Takes `request.logged` entries; `write` gets one string of lines at a time. `emulated`: the clock is not `system`. */
export function createServeLog(format: 'pretty' | 'json', write: (lines: string) => void, emulated = false) {
  let lines: string[] = [];
  // Lines shown and not shown in the current window, which starts with the first line after a quiet one.
  let shown = 0;
  let hidden = 0;
  let window: ReturnType<typeof setTimeout> | null = null;

  const flush = (): void => {
    if (lines.length) write(lines.join('\n'));
    lines = [];
  };
  const push = (line: string): void => {
    if (lines.length === 0) setImmediate(flush);
    lines.push(line);
  };
  const endWindow = (): void => {
    window = null;
    if (hidden > 0) push(hiddenLinesNote(hidden));
    shown = 0;
    hidden = 0;
  };

  return {
    entry(e: Record<string, unknown>): void {
      if (format === 'pretty') {
        window ??= setTimeout(endWindow, WINDOW_MS).unref();
        if (shown >= MAX_PRETTY_PER_SECOND) {
          hidden++;
          return;
        }
        shown++;
      }
      push(formatLogLine(e, format, emulated));
    },
    /** Writes what is waiting, with the count of lines not shown (on shutdown). */
    close(): void {
      if (window) clearTimeout(window);
      endWindow();
      flush();
    },
  };
}
