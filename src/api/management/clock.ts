// The emulator's clock: /_vtr/api/clock, /_vtr/api/clock/advance, /_vtr/api/clock/set.
import * as z from 'zod';
import { Timestamp } from '../common.js';
import { declareRoute, json } from '../declare.js';
import { failures, MANAGEMENT_SECURITY as security, MANAGEMENT_TAG } from './common.js';

const tags = [MANAGEMENT_TAG];

export const ClockAdvance = z
  .strictObject({ duration: z.union([z.string(), z.number().min(0)]).meta({ description: 'Like 30s, 5m, 2h or 3d (a unit is required), or whole milliseconds as a number' }) })
  .meta({ id: 'ClockAdvance' });
export const ClockSet = z.strictObject({ timestamp: z.string().meta({ description: 'ISO 8601, e.g. 2026-11-21T09:00:00 (UTC unless a zone is given)' }) }).meta({ id: 'ClockSet' });

export const ClockState = z
  .looseObject({
    now: Timestamp,
    mode: z.enum(['system', 'manual', 'frozen']).meta({ description: 'system: real time; frozen: moves only when told; manual: real time plus an offset' }),
    offset_ms: z.number().meta({ description: 'How far the clock is from real time' }),
  })
  .meta({ id: 'Clock' });

const moved = (summary: string, operationId: string, path: string, body: z.ZodType) =>
  declareRoute({
    method: 'post', path, operationId, summary, tags, security,
    description: 'A frozen or manual clock only. Every webhook attempt scheduled on the way runs at its time, in order, before the answer.',
    request: { body: { required: true, content: json(body) } },
    responses: { 200: { description: 'The clock after the move', content: json(ClockState) }, ...failures('write', 409) },
  });

export const getClockRoute = declareRoute({
  method: 'get', path: '/_vtr/api/clock', operationId: 'getClock', summary: "The emulator's time", tags, security,
  responses: { 200: { description: 'The clock', content: json(ClockState) }, ...failures('read') },
});
export const advanceClockRoute = moved('Move the clock forward', 'advanceClock', '/_vtr/api/clock/advance', ClockAdvance);
export const setClockRoute = moved('Move the clock forward to a time', 'setClock', '/_vtr/api/clock/set', ClockSet);

export const CLOCK_ROUTES = [getClockRoute, advanceClockRoute, setClockRoute] as const;
