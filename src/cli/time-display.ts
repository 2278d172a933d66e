// Times shown to a person: always with their zone, and marked "emulated" when they come from an
// emulator whose clock is not the real one (frozen or manual), so a time printed by `tail` is never
// mistaken for the wall-clock time `webhooks receive` prints. --json output keeps the API's format.
import type { ApiClient } from '../client/api-client.js';
import type { CliContext } from './context.js';
import { utcText } from '../domain/time.js';

// One display of a time for the CLI and the emulator's messages alike.
export { utcText };

export interface TimeFormat {
  /** "2026-11-25 21:03:04 UTC" (+ " (emulated)"); null/undefined stays null (shown as "-"). */
  (iso: string | null | undefined): string | null;
  /** For a table column header: "UTC" or "UTC, emulated". */
  readonly zone: string;
  readonly emulated: boolean;
}

export function timeFormat(emulated: boolean, cells = false): TimeFormat {
  // In a table the header carries the mark; each cell only names the zone.
  const mark = emulated && !cells ? ' (emulated)' : '';
  const f = ((iso: string | null | undefined) => (iso ? `${utcText(iso)}${mark}` : null)) as TimeFormat;
  return Object.assign(f, { zone: emulated ? 'UTC, emulated' : 'UTC', emulated });
}

/** Whether the emulator's clock is not the real one. Asked only for human output (--json never marks). */
export async function emulatedClock(ctx: CliContext, client: ApiClient): Promise<boolean> {
  return (await emulatorClock(ctx, client)).emulated;
}

/** As emulatedClock, with the emulator's time (`now`, null with --json or unread): by it a due attempt is under way. */
export async function emulatorClock(ctx: CliContext, client: ApiClient): Promise<{ emulated: boolean; now: string | null }> {
  if (ctx.config.json) return { emulated: false, now: null };
  const clock = await client.admin<{ mode: string; now: string }>('GET', '/clock').catch(() => null);
  return { emulated: clock != null && clock.mode !== 'system', now: clock?.now ?? null };
}

/** The formatter for an emulator's times: marked when its clock is frozen or manual. */
export async function emulatorTimes(ctx: CliContext, client: ApiClient, cells = false): Promise<TimeFormat> {
  return timeFormat(await emulatedClock(ctx, client), cells);
}

/**
 * For a live tail: `show` gets each event with the format of the emulator's times, asked again
 * each time the stream connects anew (the emulator may have come back with another --clock).
 * Events that arrive while it is asked wait, then show in order.
 */
export async function liveTimes<E>(ctx: CliContext, client: ApiClient, show: (e: E, t: TimeFormat) => void) {
  let t = await emulatorTimes(ctx, client);
  let held: E[] | null = null;
  let asked = 0;
  return {
    onEvent(e: E): void {
      if (held) held.push(e);
      else show(e, t);
    },
    reconnected(): void {
      if (ctx.config.json) return; // --json never marks times
      held ??= [];
      const ask = ++asked;
      void emulatedClock(ctx, client).then((emulated) => {
        if (ask !== asked) return; // a later reconnection asks again
        t = timeFormat(emulated);
        const waiting = held ?? [];
        held = null;
        for (const e of waiting) show(e, t);
      });
    },
  };
}
