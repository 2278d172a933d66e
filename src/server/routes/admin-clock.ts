// The clock: read it, move it forward (api/management/clock.ts).
import type { Hono } from 'hono';
import { advanceClockRoute, ClockAdvance, ClockSet, getClockRoute, setClockRoute } from '../../api/management/clock.js';
import { ClockError, clockJson } from '../../domain/clock.js';
import { VtrError } from '../../domain/errors.js';
import { parseDuration, parseTimestamp } from '../../domain/time.js';
import type { AppDeps } from '../deps.js';
import { readJsonObject } from '../http.js';
import { mount } from '../mount.js';
import { validate } from '../validate.js';

export function adminClockRoutes(app: Hono, deps: AppDeps): void {
  // Forward by `ms`, stopping at every delivery scheduled on the way (see AppDeps.advanceClock).
  const move = async (by: number | (() => number), field?: string) => {
    try {
      if (deps.advanceClock) return await deps.advanceClock(by);
      deps.clock.advance(typeof by === 'function' ? by() : by);
    } catch (err) {
      if (err instanceof ClockError) throw new VtrError('conflict', err.message, field ? { field } : undefined);
      throw err;
    }
    await deps.afterClockMove?.();
  };
  mount(app, [
    [getClockRoute, (c) => c.json(clockJson(deps.clock))],
    [advanceClockRoute, async (c) => {
      const { duration } = validate(ClockAdvance, await readJsonObject(c));
      // A number is milliseconds, whole ones as the clock counts them; a number in a string ("1500")
      // has no unit: read as seconds, as the CLI reads its argument, it would be a thousand times that.
      if (typeof duration === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(duration)) {
        throw new VtrError('invalid_request', `duration: ${JSON.stringify(duration)} has no unit: give whole milliseconds as a number (${duration.trim()}) or a duration with its unit ("${duration.trim()}ms", "${duration.trim()}s")`, { field: 'duration' });
      }
      if (typeof duration === 'number' && !Number.isInteger(duration)) throw new VtrError('invalid_request', 'duration: a number is whole milliseconds; give e.g. 1500, or a duration like "1.5s"', { field: 'duration' });
      const ms = typeof duration === 'number' ? duration : parseDuration(duration);
      if (ms == null || !Number.isFinite(ms)) throw new VtrError('invalid_request', 'duration: use a duration like 30s, 5m, 2h or 3d', { field: 'duration' });
      await move(ms);
      return c.json(clockJson(deps.clock));
    }],
    [setClockRoute, async (c) => {
      const { timestamp } = validate(ClockSet, await readJsonObject(c));
      const ms = parseTimestamp(timestamp);
      if (ms == null) throw new VtrError('invalid_request', 'timestamp: use ISO 8601, e.g. 2026-11-21T09:00:00', { field: 'timestamp' });
      // Measured when the move's turn comes: another move may be running.
      await move(() => deps.clock.distanceTo(ms), 'timestamp');
      return c.json(clockJson(deps.clock));
    }],
  ]);
}
