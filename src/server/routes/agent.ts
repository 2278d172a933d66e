// The client-side agent: GET /agent.js and the endpoints it posts to. Authorised by the site key
// (public, on the page); custom events and pings also need the probe issued to that session.
// CORS-open (no credentials), so a page on any origin, e.g. another localhost port, can use it.
import type { Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import * as z from 'zod';
import { customEventName } from '../../api/public.js';
import { VtrError } from '../../domain/errors.js';
import { CLI_OPTION_NAMES } from '../../domain/option-names.js';
import type { Site } from '../../domain/site.js';
import type { AppDeps } from '../deps.js';
import { browserScripts } from '../browser-scripts.js';
import { clientIp } from '../client-ip.js';
import { readJsonObject, route } from '../http.js';
import { validate } from '../validate.js';

const MAX_AGENT_BODY = 64 * 1024;
const str = (max: number) => z.string({ error: 'expected a string' }).max(max, `must be at most ${max} characters`);
const opt = (max: number) => str(max).nullable().optional();
// As `POST /_vtr/api/sites/{site_id}/sessions` refuses it: a page has an address.
const pageUrl = str(8000).regex(/\S/, 'must not be empty or blank');

const pageviewBody = z.object({
  url: pageUrl, referrer: opt(8000), language: opt(50), timezone: opt(100), screen: opt(50),
  user_agent: opt(2000), fingerprint: opt(200),
});
const sessionRef = { session_id: str(100), probe_id: str(100) };
const eventBody = z.object({
  ...sessionRef,
  // As POST /api/v1/session/{id}/event takes it.
  name: customEventName({ error: 'expected a string' }),
  value: z.number({ error: 'expected a number' }).finite().nullable().optional(),
});
const pingBody = z.object({ ...sessionRef, url: pageUrl, fingerprint: opt(200) });

// Credentials a page must never carry, by prefix: put in data-site-key, they are named as such.
const SERVER_CREDENTIALS = [['sk_', 'secret key'], ['at_', 'access token'], ['whsec_', 'webhook signing secret']] as const;

// A fingerprint the page kept from an earlier answer; anything else gets a new one.
const FINGERPRINT = /^[A-Za-z0-9_-]{8,100}$/;

/** JSON in a text/plain (no preflight) or application/json body, at most 64 KiB, read as the public API reads its bodies. */
const readAgentBody = (c: Context) => readJsonObject(c, MAX_AGENT_BODY, { tooLargeMessage: 'an agent request is at most 64 KiB', textPlain: true });

export function agentRoutes(app: Hono, { sites, sessions, config }: AppDeps): void {
  const { siteKey: keys, newKeysEachStart } = config.credentials ?? CLI_OPTION_NAMES;
  // Any request header the preflight asks for (no allowHeaders: hono echoes them): a page's tracing
  // (traceparent, sentry-trace, baggage) adds its own to every fetch, the agent's included.
  const open = cors({ origin: '*', allowMethods: ['GET', 'POST', 'OPTIONS'], maxAge: 600 });
  app.use('/agent.js', open);
  app.use('/_vtr/agent/*', open);

  const siteOf = (body: Record<string, unknown>): Site => {
    const key = body.site_key;
    if (key != null && typeof key !== 'string') throw new VtrError('invalid_request', 'site_key: expected a string', { field: 'site_key' });
    // Pasted into an attribute, a key picks up spaces or a line break; keys have none.
    const trimmed = typeof key === 'string' ? key.trim() : '';
    if (trimmed === '') throw new VtrError('unauthorized', 'site_key is missing: add data-site-key="pk_test_..." to the agent script tag');
    const misplaced = SERVER_CREDENTIALS.find(([prefix]) => trimmed.startsWith(prefix));
    if (misplaced) {
      throw new VtrError('unauthorized', `data-site-key holds a ${misplaced[1]}: it is for your server and must never be on a page (anyone can read it there); use the site key, pk_test_... (see ${keys})`);
    }
    const site = sites.bySiteKey(trimmed);
    // A page left open across a restart in memory is the usual way to get here.
    if (!site) {
      throw new VtrError(
        'unauthorized',
        `the site key is unknown: it was rotated, or the emulator restarted without its database (${newKeysEachStart}); put the current one in data-site-key (see ${keys})`,
      );
    }
    return site;
  };
  // The probe proves the caller saw a page view of this session.
  const ownSession = (site: Site, ref: { session_id: string; probe_id: string }) => {
    const probe = sessions.probe(ref.probe_id);
    if (!probe || probe.site_id !== site.site_id || probe.session_id !== ref.session_id) {
      throw new VtrError('unauthorized', 'the probe_id was not issued to this site and session');
    }
  };

  // Cross-Origin-Resource-Policy: a cross-origin-isolated page (COEP require-corp) loads the agent
  // from the plain script tag too, as it does a third-party script from a CDN.
  route(app, '/agent.js', {
    GET: (c) => c.body(browserScripts.get('agent'), 200, {
      'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'cross-origin-resource-policy': 'cross-origin',
    }),
  });

  route(app, '/_vtr/agent/pageview', {
    POST: async (c) => {
      const body = await readAgentBody(c);
      const site = siteOf(body);
      const pv = validate(pageviewBody, body);
      const fp = pv.fingerprint && FINGERPRINT.test(pv.fingerprint) ? pv.fingerprint : null;
      const { session, probe_id } = sessions.recordPageView(site, {
        url: pv.url,
        referrer: pv.referrer || null,
        // The header is what the server sees; the body's copy only fills in when it is missing.
        user_agent: c.req.header('user-agent') || pv.user_agent || null,
        ip: clientIp(c),
        language: pv.language || null,
        timezone: pv.timezone || null,
        screen: pv.screen || null,
        fingerprint: fp,
      });
      return c.json({ probe_id, session_id: session.session_id, fingerprint: session.fingerprint });
    },
  });

  route(app, '/_vtr/agent/event', {
    POST: async (c) => {
      const body = await readAgentBody(c);
      const site = siteOf(body);
      const e = validate(eventBody, body);
      ownSession(site, e);
      sessions.appendAgentEvent(site, e.session_id, e.name, e.value);
      return c.json({ success: true });
    },
  });

  route(app, '/_vtr/agent/ping', {
    POST: async (c) => {
      const body = await readAgentBody(c);
      const site = siteOf(body);
      const p = validate(pingBody, body);
      ownSession(site, p);
      return c.json({ success: true, extended: sessions.ping(site, p.session_id, p.url) });
    },
  });
}
