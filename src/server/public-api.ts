// The three public API routes as plain functions of what the request carried (its Authorization
// header, the path's id, the parsed body); routes/public-*.ts call them. Bodies are validated here,
// after authentication, with the schemas the routes declare (api/routes.ts).
import { addCustomEventRoute, checkVisitorRoute } from '../api/routes.js';
import { VtrError } from '../domain/errors.js';
import type { CheckResult } from '../checks/run-check.js';
import type { Session } from '../domain/session.js';
import type { AppDeps } from './deps.js';
import { validate } from './validate.js';
import { bearerOf } from './http.js';
import { eachOnItsOwn } from './write-queue.js';
import { bodySchema } from './mount.js';
import { CLI_OPTION_NAMES } from '../domain/option-names.js';

export type PublicApi = ReturnType<typeof createPublicApi>;

// Every credential has its own prefix, so a wrong kind can be named (never echoing the value).
const KINDS: Array<[prefix: string, name: string]> = [
  ['sk_test_', 'a secret key (it goes in the body of POST /api/v1/event)'],
  ['at_test_', 'an access token (it goes in Authorization: Bearer, for the session API)'],
  ['pk_test_', 'a site key (public: for the agent on your pages)'],
  ['whsec_', 'a webhook signing secret'],
];
/** "that is a site key; send … here" when `given` is a kind of credential the route does not take. */
function mixedUp(given: string, accepted: string[], wanted: string): string | null {
  const kind = KINDS.find(([prefix]) => !accepted.includes(prefix) && given.startsWith(prefix));
  return kind ? `that is ${kind[1]}; send ${wanted} here` : null;
}

// A key read from a file or an environment file keeps its line break: say so, as keys have none.
function padded(given: string): string | null {
  return given !== given.trim() && given.trim() !== '' ? 'the secret key has white space or a line break around it (read from a file?); remove it (.trim())' : null;
}

export function createPublicApi({ sites, sessions, checks, writes = eachOnItsOwn, config }: Pick<AppDeps, 'sites' | 'sessions' | 'checks' | 'writes' | 'config'>) {
  // Named as whoever started the emulator reads them: `vtr tokens list`, or emu.site for the library.
  const { accessToken: tokens, secretKey: keys } = config.credentials ?? CLI_OPTION_NAMES;
  return {
    /**
     * The site whose sessions an Authorization header reads: an access token, or the site's secret
     * key (as clients written for the hosted service send it). Checked before the body is read.
     */
    authorize(authorization: string | null | undefined): string {
      const token = bearerOf(authorization);
      if (!token) throw new VtrError('unauthorized', `send an access token or the site's secret key: Authorization: Bearer <ACCESS_TOKEN> (see ${tokens})`);
      const siteId = sites.siteIdForToken(token) ?? sites.bySecretKey(token)?.site_id;
      if (!siteId) throw new VtrError('unauthorized', `${mixedUp(token, ['at_test_', 'sk_test_'], 'an access token (at_test_…) or the site\'s secret key (sk_test_…)') ?? 'the access token or secret key is unknown, revoked or rotated'} (see ${tokens})`);
      return siteId;
    },
    /** GET /api/v1/session/{id}, for an authorized site. */
    getSession(siteId: string, id: string): Session {
      return sessions.get(id, siteId);
    },
    /** POST /api/v1/session/{id}/event, for an authorized site. */
    async addEvent(siteId: string, id: string, body: Record<string, unknown>): Promise<{ success: true }> {
      const e = validate(bodySchema(addCustomEventRoute), body);
      await writes.run(() => sessions.appendCustomEvent(id, siteId, e.name, e.value));
      return { success: true };
    },
    /** PUT /api/v1/session/{id}/conversion: the site's first conversion event, added once. */
    async convert(siteId: string, id: string): Promise<{ success: true }> {
      await writes.run(() => sessions.addConversion(id, siteId));
      return { success: true };
    },
    /**
     * POST /api/v1/event: the site's secret key comes in the body, or as the bearer token (the body
     * wins when both are sent); only a wrong JSON type is refused.
     */
    async check(body: Record<string, unknown>, authorization?: string | null): Promise<{ siteId: string; result: CheckResult }> {
      const sent = body.secret_key;
      // Null, "" or only white space (a template's unset variable) is "not sent": the bearer is used.
      const unset = sent === undefined || sent === null || (typeof sent === 'string' && sent.trim() === '');
      const key = unset ? bearerOf(authorization) : sent;
      if (key === undefined || key === null || key === '') {
        throw new VtrError('unauthorized', `send the site's secret key in the body, {"secret_key": "sk_test_..."}, or as Authorization: Bearer <secret key> (see ${keys})`);
      }
      if (typeof key !== 'string') throw new VtrError('invalid_request', 'secret_key: expected a string', { field: 'secret_key' });
      const site = sites.bySecretKey(key);
      if (!site) throw new VtrError('unauthorized', `${mixedUp(key, ['sk_test_'], 'the site\'s secret key (sk_test_…)') ?? padded(key) ?? 'the secret key is unknown (rotated?)'}; see ${keys}`);
      const input = validate(bodySchema(checkVisitorRoute), body);
      return { siteId: site.site_id, result: await writes.run(() => checks.run(site, input)) };
    },
  };
}
