// POST /api/v1/event: the visitor check. The site's secret key comes in the body (no Authorization
// header); every other field is optional, and only a wrong JSON type is refused (400 naming the field).
import type { Hono } from 'hono';
import { z } from 'zod';
import { VtrError } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { readJsonObject, route } from '../http.js';
import { validate } from '../validate.js';

// null reads as "not sent", like an absent field.
const text = z.string({ error: 'expected a string' }).nullable().optional();
const address = z.object(
  { address1: text, address2: text, city: text, state: text, country: text, postal_code: text },
  { error: 'expected an object with string fields address1, address2, city, state, country, postal_code' },
);

// Unknown fields are ignored (a newer client may send more).
export const checkBody = z.object({
  probe_id: text,
  ip: text,
  email: text,
  name: text,
  phone: text,
  address: address.nullable().optional(),
});

export function publicEventRoutes(app: Hono, { sites, checks }: AppDeps): void {
  route(app, '/api/v1/event', {
    POST: async (c) => {
      const body = await readJsonObject(c);
      const key = body.secret_key;
      if (key === undefined || key === null || key === '') {
        throw new VtrError('unauthorized', 'send the site\'s secret key in the body: {"secret_key": "sk_test_..."} (see `vtr keys show`)');
      }
      if (typeof key !== 'string') throw new VtrError('invalid_request', 'secret_key: expected a string', { field: 'secret_key' });
      const site = sites.bySecretKey(key);
      if (!site) throw new VtrError('unauthorized', 'the secret key is unknown (rotated? see `vtr keys show`)');
      return c.json(checks.run(site, validate(checkBody, body)));
    },
  });
}
