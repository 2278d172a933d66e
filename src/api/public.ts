// The public API's remaining bodies: POST /api/v1/session/{id}/event.
import * as z from 'zod';

export const CustomEventRequest = z
  .object({
    name: z.string({ error: 'required, a string of 1 to 100 characters' }).min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
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
