// What an unknown path most likely meant, when it is one of the public API's routes slightly off:
// a base URL without /api/v1 (or with it twice, or another version), a plural segment, an empty
// session id. Apps build these paths from a configured base URL, and that is where they go wrong.
import { PUBLIC_ROUTES } from '../api/routes.js';

const BASE = '/api/v1';

// The declared public routes, as patterns of the path after /api/v1 (a parameter is one segment).
const ROUTES = PUBLIC_ROUTES.map((r) => ({
  method: r.method.toUpperCase(),
  pattern: new RegExp(`^${r.path.slice(BASE.length).replaceAll(/\{\w+\}/g, '[^/]+')}$`),
}));

/** The hint to append to "no route for METHOD PATH", or null when nothing close is a public route. */
export function publicPathHint(method: string, path: string): string | null {
  if (/^\/api\/v1\/sessions?(\/+((event|conversion)\/?)?)?$/.test(path)) {
    return 'the session id is missing: /api/v1/session/{id}';
  }
  const versioned = /^\/api\/v\d+(?=\/)/.test(path);
  const rest = path
    .replace(/^(\/api\/v\d+)+(?=\/)/, '')
    .replace(/\/$/, '')
    .replace(/^\/sessions\//, '/session/')
    .replace(/\/events$/, '/event');
  const close = ROUTES.filter((r) => r.pattern.test(rest));
  if (close.length === 0) return null;
  // The route of the method sent, else the one the path has (a GET of /event means the POST).
  const meant = `${(close.find((r) => r.method === method) ?? close[0]).method} ${BASE}${rest}`;
  return versioned ? `did you mean ${meant}?` : `the public API is at ${meant} (its base URL ends in /api/v1)`;
}
