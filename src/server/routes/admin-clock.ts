import type { Hono } from 'hono';
import { z } from 'zod';
import { ClockError, clockJson } from '../../domain/clock.js';
import { VtrError } from '../../domain/errors.js';
import { parseDuration, parseTimestamp } from '../../domain/time.js';
import type { AppDeps } from '../deps.js';
import { readJsonObject, route } from '../http.js';
import { validate } from '../validate.js';

const advanceBody = z.strictObject({ duration: z.union([z.string(), z.number().min(0)]) });
const setBody = z.strictObject({ timestamp: z.string() });

export function adminClockRoutes(app: Hono, deps: AppDeps): void {
  // Forward by `ms`, stopping at every delivery scheduled on the way (see AppDeps.advanceClock).
  const move = async (ms: number) => {
    try {
      if (deps.advanceClock) return await deps.advanceClock(ms);
      deps.clock.advance(ms);
    } catch (err) {
      if (err instanceof ClockError) throw new VtrError('conflict', err.message);
      throw err;
    }
    await deps.afterClockMove?.();
  };
  route(app, '/_vtr/api/clock', { GET: (c) => c.json(clockJson(deps.clock)) });
  route(app, '/_vtr/api/clock/advance', {
    POST: async (c) => {
      const { duration } = validate(advanceBody, await readJsonObject(c));
      const ms = typeof duration === 'number' ? duration : parseDuration(duration);
      if (ms == null || !Number.isFinite(ms)) throw new VtrError('invalid_request', 'duration: use a duration like 30s, 5m, 2h or 3d', { field: 'duration' });
      await move(ms);
      return c.json(clockJson(deps.clock));
    },
  });
  route(app, '/_vtr/api/clock/set', {
    POST: async (c) => {
      const { timestamp } = validate(setBody, await readJsonObject(c));
      const ms = parseTimestamp(timestamp);
      if (ms == null) throw new VtrError('invalid_request', 'timestamp: use ISO 8601, e.g. 2026-11-21T09:00:00', { field: 'timestamp' });
      await move(ms - deps.clock.now());
      return c.json(clockJson(deps.clock));
    },
  });
}
