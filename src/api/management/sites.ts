// Sites, their keys and their access tokens: /_vtr/api/sites..., /_vtr/api/tokens...
import * as z from 'zod';
import { isValidAllowlistEntry } from '../../domain/ip-allowlist.js';
import { isCountryCode } from '../../domain/country-codes.js';
import { DEFAULT_BOUNCE_SECONDS, DEFAULT_CONVERSION_EVENTS, DEFAULT_SITE_NAME, PLANS } from '../../domain/site.js';
import { Timestamp } from '../common.js';
import { declareRoute, json } from '../declare.js';
import { customEventName } from '../public.js';
import { deleted, failures, forDefault, Name, nameOf, MANAGEMENT_SECURITY as security, MANAGEMENT_TAG, nullNotAllowed, pathId, SiteParams, siteFilter } from './common.js';

const tags = [MANAGEMENT_TAG];
const NOT_A_COUNTRY = 'must be a two-letter ISO 3166-1 country code, e.g. US, GB, DE';
const country = z.string().regex(/^[A-Za-z]{2}$/, NOT_A_COUNTRY).refine(isCountryCode, NOT_A_COUNTRY);
const NOT_A_PLAN = `must be one of ${PLANS.join(', ')}`;
const siteFields = {
  name: Name,
  plan: z.enum(PLANS, { error: NOT_A_PLAN }),
  country: country.nullable().meta({ description: "Where local phone numbers are read; default US" }),
  owner_email: z.email('must be an email address').nullable().meta({ description: 'Where webhook notifications go' }),
  // Matched against events' names, which lose the spaces around them: so do these.
  conversion_events: z.array(customEventName()).max(100),
  bounce_seconds: z.number().int().min(0).max(86_400),
  excluded_countries: z.array(country).max(300),
  // The message names the entry: the CLI shows it under --ip-allowlist, without the index.
  ip_allowlist: z.array(z.string().refine(isValidAllowlistEntry, { error: (iss) => `${JSON.stringify(iss.input)} is not an IP address or CIDR range` })).max(1000),
};
/** The fields, null only where a site may have none (country, owner_email); `leftOut`: what leaving one out does. */
const siteFieldsLeaving = (leftOut: (fallback: unknown) => string | undefined) => {
  const none = (fallback: unknown) => nullNotAllowed('use [] for none', undefined, leftOut(fallback));
  return {
    ...siteFields,
    name: nameOf(nullNotAllowed('a site needs a name', undefined, leftOut(`"${DEFAULT_SITE_NAME}"`))),
    plan: z.enum(PLANS, nullNotAllowed('a site is on the free or paid plan', NOT_A_PLAN, leftOut('paid'))),
    conversion_events: z.array(siteFields.conversion_events.element, none(DEFAULT_CONVERSION_EVENTS)).max(100),
    bounce_seconds: z.number(nullNotAllowed('use 0 for none', undefined, leftOut(DEFAULT_BOUNCE_SECONDS))).int().min(0).max(86_400),
    excluded_countries: z.array(country, none([])).max(300),
    ip_allowlist: z.array(siteFields.ip_allowlist.element, none([])).max(1000),
  };
};
/** A new site's fields: all optional. */
export const SiteInput = z.strictObject(siteFieldsLeaving(forDefault)).partial().meta({ id: 'SiteInput' });
/** The fields a change sets. */
export const SiteUpdate = z.strictObject(siteFieldsLeaving(() => undefined)).partial().meta({ id: 'SiteUpdate' });

export const SiteKeys = z.looseObject({ site_id: z.string(), site_key: z.string(), secret_key: z.string() }).meta({ id: 'SiteKeys' });

export const Site = z
  .looseObject({
    site_id: z.string(),
    name: z.string(),
    plan: z.enum(PLANS),
    country: z.string().nullable(),
    owner_email: z.string().nullable(),
    site_key: z.string().meta({ description: 'Public: for the agent on your pages' }),
    secret_key: z.string().meta({ description: 'For POST /api/v1/event' }),
    conversion_events: z.array(z.string()),
    bounce_seconds: z.number().int(),
    excluded_countries: z.array(z.string()),
    ip_allowlist: z.array(z.string()),
    is_default: z.boolean(),
    created_at: Timestamp,
  })
  .meta({ id: 'Site' });

export const AccessToken = z
  .looseObject({ token: z.string(), site_id: z.string(), created_at: Timestamp, revoked_at: Timestamp.nullable() })
  .meta({ id: 'AccessToken' });

const TokenParams = z.object({ token: pathId('token', 'The access token') });
const siteBody = { required: true, content: json(SiteInput) };
const siteUpdateBody = { required: true, content: json(SiteUpdate) };

export const listSitesRoute = declareRoute({
  method: 'get', path: '/_vtr/api/sites', operationId: 'listSites', summary: 'List the sites', tags, security,
  responses: { 200: { description: 'Every site', content: json(z.array(Site)) }, ...failures('read') },
});
export const createSiteRoute = declareRoute({
  method: 'post', path: '/_vtr/api/sites', operationId: 'createSite', summary: 'Create a site', tags, security,
  request: { body: siteBody },
  responses: { 201: { description: 'The new site', content: json(Site) }, ...failures('write') },
});
export const getDefaultSiteRoute = declareRoute({
  method: 'get', path: '/_vtr/api/sites/default', operationId: 'getDefaultSite', summary: 'The default site', tags, security,
  responses: { 200: { description: 'The default site', content: json(Site) }, ...failures('read', 404) },
});
export const getSiteRoute = declareRoute({
  method: 'get', path: '/_vtr/api/sites/{site_id}', operationId: 'getSite', summary: 'Read a site', tags, security,
  request: { params: SiteParams },
  responses: { 200: { description: 'The site', content: json(Site) }, ...failures('read', 404) },
});
export const updateSiteRoute = declareRoute({
  method: 'patch', path: '/_vtr/api/sites/{site_id}', operationId: 'updateSite', summary: 'Change a site', tags, security,
  request: { params: SiteParams, body: siteUpdateBody },
  responses: { 200: { description: 'The site as changed', content: json(Site) }, ...failures('write', 404) },
});
export const deleteSiteRoute = declareRoute({
  method: 'delete', path: '/_vtr/api/sites/{site_id}', operationId: 'deleteSite', summary: 'Delete a site and everything it has', tags, security,
  request: { params: SiteParams },
  responses: { 200: { description: 'Deleted', content: json(deleted('SiteDeleted', 'site_id')) }, ...failures('write', 404, 409) },
});
export const getSiteKeysRoute = declareRoute({
  method: 'get', path: '/_vtr/api/sites/{site_id}/keys', operationId: 'getSiteKeys', summary: "The site's keys", tags, security,
  request: { params: SiteParams },
  responses: { 200: { description: 'The keys', content: json(SiteKeys) }, ...failures('read', 404) },
});
export const rotateSiteKeysRoute = declareRoute({
  method: 'post', path: '/_vtr/api/sites/{site_id}/keys/rotate', operationId: 'rotateSiteKeys', summary: 'New site and secret keys (the old ones stop working)', tags, security,
  request: { params: SiteParams },
  responses: { 200: { description: 'The new keys', content: json(SiteKeys) }, ...failures('write', 404) },
});
export const listSiteTokensRoute = declareRoute({
  method: 'get', path: '/_vtr/api/sites/{site_id}/tokens', operationId: 'listSiteTokens', summary: "The site's access tokens", tags, security,
  request: { params: SiteParams },
  responses: { 200: { description: 'Its tokens, revoked ones included', content: json(z.array(AccessToken)) }, ...failures('read', 404) },
});
export const createTokenRoute = declareRoute({
  method: 'post', path: '/_vtr/api/sites/{site_id}/tokens', operationId: 'createToken', summary: 'A new access token for the site', tags, security,
  request: { params: SiteParams },
  responses: { 201: { description: 'The new token', content: json(AccessToken) }, ...failures('write', 404) },
});
export const listTokensRoute = declareRoute({
  method: 'get', path: '/_vtr/api/tokens', operationId: 'listTokens', summary: 'Access tokens of every site', tags, security,
  request: { query: z.object({ site: siteFilter }) },
  responses: { 200: { description: 'The tokens', content: json(z.array(AccessToken)) }, ...failures('read', 400, 404) },
});
export const revokeTokenRoute = declareRoute({
  method: 'delete', path: '/_vtr/api/tokens/{token}', operationId: 'revokeToken', summary: 'Revoke an access token', tags, security,
  request: { params: TokenParams },
  responses: { 200: { description: 'The token, revoked', content: json(AccessToken) }, ...failures('write', 404) },
});

/** In the order they are mounted: `/sites/default` before `/sites/{site_id}`. */
export const SITE_ROUTES = [
  listSitesRoute, createSiteRoute, getDefaultSiteRoute, getSiteRoute, updateSiteRoute, deleteSiteRoute, getSiteKeysRoute,
  rotateSiteKeysRoute, listSiteTokensRoute, createTokenRoute, listTokensRoute, revokeTokenRoute,
] as const;
