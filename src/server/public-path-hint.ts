// What an unknown path most likely meant, when it is one of the public API's routes slightly off:
// a base URL without /api/v1 (or with it twice, or another version), a plural segment, an empty
// session id. Apps build these paths from a configured base URL, and that is where they go wrong.

// The public routes, after /api/v1 (one trailing slash is accepted, as the routes accept it).
const ROUTES = [/^\/event$/, /^\/session\/[^/]+$/, /^\/session\/[^/]+\/(event|conversion)$/];

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
  if (!ROUTES.some((r) => r.test(rest))) return null;
  const meant = `${method} /api/v1${rest}`;
  return versioned ? `did you mean ${meant}?` : `the public API is at ${meant} (its base URL ends in /api/v1)`;
}
