// The public API's remaining bodies: POST /api/v1/session/{id}/event.
import * as z from 'zod';

/**
 * A custom event's name, wherever one enters (this route, the agent's `vtr.event`, a created session's
 * `custom_events`): spaces around it are dropped, so " conversion " is the conversion event, and a
 * name of only spaces, which no site could convert on nor anyone tell from none, is refused.
 */
export const customEventName = (params?: Parameters<typeof z.string>[0]) => z.string(params)
  .min(1, 'must not be empty').regex(/\S/, 'must not be empty or blank').trim().max(100, 'must be at most 100 characters');

export const CustomEventRequest = z
  .object({
    name: customEventName({ error: 'required, a string of 1 to 100 characters' })
      .meta({ description: 'The event name: spaces around it are dropped, then 1 to 100 characters' }),
    // Null reads as "not sent", as in the visitor check and the agent's event.
    value: z.number({ error: 'expected a number (or leave it out)' }).nullable().optional()
      .meta({ description: "Optional: added to the session's value (null: no value)" }),
  })
  .meta({ id: 'CustomEventRequest' });

export const CustomEventResponse = z.strictObject({ success: z.literal(true) }).meta({ id: 'CustomEventResponse' });

/** The path parameter of the session routes. */
export const SessionIdParams = z.object({
  id: z.string().meta({ param: { name: 'id', in: 'path' }, description: 'The session identifier' }),
});
