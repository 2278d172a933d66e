// How the agent reaches the emulator: JSON posted with Content-Type text/plain (a CORS "simple"
// request: no preflight round trip), kept alive past the page's unload.

// The emulator keeps addresses up to 8000 characters; a longer one (app state in the query) is cut
// rather than the page view refused, which also keeps a keepalive request under Chrome's 64 KiB.
const MAX_URL = 8000;

export const cut = (u: string | null): string | null => (u && u.length > MAX_URL ? u.slice(0, MAX_URL) : u);

export const warn = (m: string) => { try { if (window.console) window.console.warn('vtr: ' + m); } catch (e) {} };

/** Resolves the answer's JSON; rejects with the error's message, and its code as `code`. Never throws. */
export const send = <T>(url: string, body: Record<string, unknown>): Promise<T> => {
  // A page's fetch that throws at once (taken away, or a wrapper refusing) fails as a refused request does.
  return new Promise<Response>((res) => res(window.fetch(url, {
    method: 'POST', mode: 'cors', credentials: 'omit', keepalive: true,
    headers: { 'Content-Type': 'text/plain;charset=UTF-8' }, body: JSON.stringify(body),
  }))).then((r) => r.json().then(null, () => null).then((j) => {
    // Not the emulator's JSON (a proxy's error page, a page served in its place): say its status.
    if (!r.ok || !j || typeof j != 'object') { const e = new Error((j && j.message) || ('HTTP ' + r.status)); (e as Error & { code?: string }).code = j && j.code; throw e; }
    return j as T;
  }), (e: Error) => {
    // The browser's own words ("Failed to fetch") say neither where nor why.
    throw new Error('could not reach the emulator at ' + url.replace(/\/_vtr\/.*$/, '') + ' (not running, or blocked by the page\'s Content-Security-Policy connect-src or a blocker): ' + e.message);
  });
};
