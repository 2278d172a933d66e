// The three public API routes as plain functions of what the request carried (its Authorization
// header, the path's id, the parsed body); routes/public-*.ts call them.
import { z } from 'zod';
import { VtrError } from '../domain/errors.js';
import type { CheckResult } from '../checks/run-check.js';
import type { Session } from '../domain/session.js';
import type { AppDeps } from './deps.js';
import { validate } from './validate.js';
import { bearerOf } from './http.js';
import { eachOnItsOwn } from './write-queue.js';

const eventBody = z.object({
  name: z.string({ error: 'required, a string of 1 to 100 characters' }).min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  value: z.number().finite().optional(),
});

// null reads as "not sent", like an absent field.
const text = z.string({ error: 'expected a string' }).nullable().optional();
const address = z.object(
  { address1: text, address2: text, city: text, state: text, country: text, postal_code: text },
  { error: 'expected an object with string fields address1, address2, city, state, country, postal_code' },
);

// Unknown fields are ignored (a newer client may send more).
const checkBody = z.object({
  probe_id: text,
  ip: text,
  email: text,
  name: text,
  phone: text,
  address: address.nullable().optional(),
});

export type PublicApi = ReturnType<typeof createPublicApi>;

// Every credential has its own prefix, so a wrong kind can be named (never echoing the value).
const KINDS: Array<[prefix: string, name: string]> = [
  ['sk_test_', 'a secret key (it goes in the body of POST /api/v1/event)'],
  ['at_test_', 'an access token (it goes in Authorization: Bearer, for the session API)'],
  ['pk_test_', 'a site key (public: for the agent on your pages)'],
  ['whsec_', 'a webhook signing secret'],
];
const WANTED: Record<string, string> = { sk_test_: 'the site\'s secret key (sk_test_…)', at_test_: 'an access token (at_test_…)' };

/** "that is an access token, not …" when `given` is another kind of credential than `expected`. */
function mixedUp(given: string, expected: string): string | null {
  const kind = KINDS.find(([prefix]) => prefix !== expected && given.startsWith(prefix));
  return kind ? `that is ${kind[1]}; send ${WANTED[expected]} here` : null;
}

export function createPublicApi({ sites, sessions, checks, writes = eachOnItsOwn }: Pick<AppDeps, 'sites' | 'sessions' | 'checks' | 'writes'>) {
  return {
    /** The site an Authorization header's access token reads; checked before the body is read. */
    authorize(authorization: string | null | undefined): string {
      const token = bearerOf(authorization);
      if (!token) throw new VtrError('unauthorized', 'send an access token: Authorization: Bearer <ACCESS_TOKEN> (see `vtr tokens list`)');
      const siteId = sites.siteIdForToken(token);
      if (!siteId) throw new VtrError('unauthorized', `${mixedUp(token, 'at_test_') ?? 'the access token is unknown or revoked'} (see \`vtr tokens list\`)`);
      return siteId;
    },
    /** GET /api/v1/session/{id}, for an authorized site. */
    getSession(siteId: string, id: string): Session {
      return sessions.get(id, siteId);
    },
    /** POST /api/v1/session/{id}/event, for an authorized site. */
    async addEvent(siteId: string, id: string, body: Record<string, unknown>): Promise<{ success: true }> {
      const e = validate(eventBody, body);
      await writes.run(() => sessions.appendCustomEvent(id, siteId, e.name, e.value));
      return { success: true };
    },
    /** POST /api/v1/event: the site's secret key comes in the body; only a wrong JSON type is refused. */
    async check(body: Record<string, unknown>): Promise<{ siteId: string; result: CheckResult }> {
      const key = body.secret_key;
      if (key === undefined || key === null || key === '') {
        throw new VtrError('unauthorized', 'send the site\'s secret key in the body: {"secret_key": "sk_test_..."} (see `vtr keys show`)');
      }
      if (typeof key !== 'string') throw new VtrError('invalid_request', 'secret_key: expected a string', { field: 'secret_key' });
      const site = sites.bySecretKey(key);
      if (!site) throw new VtrError('unauthorized', `${mixedUp(key, 'sk_test_') ?? 'the secret key is unknown (rotated?)'}; see \`vtr keys show\``);
      const input = validate(checkBody, body);
      return { siteId: site.site_id, result: await writes.run(() => checks.run(site, input)) };
    },
  };
}
