// A single-page app's navigations: pushState, back/forward and a new #/route each count as a page
// view. Calls in one tick (a router's redirect) are one, the last. replaceState (query state,
// scroll restoration) is none: it changes the current page's address, which a later #anchor then
// does not count as another page.

/** Which page an address is: without its hash, unless the hash is a route (#/orders, #!/orders). */
export const page = (u: string) => u.replace(/#(?!!?\/).*/, '');

/** `navigated` runs a tick after a navigation; `replaced` on a replaceState outside one. */
export const watchNavigations = (navigated: () => void, replaced: () => void): void => {
  const h = window.history;
  let soon = 0;
  const wrap = (m: 'pushState' | 'replaceState', after: () => void) => {
    const o = h[m];
    h[m] = function (this: History) { const r = o.apply(this, arguments as unknown as Parameters<History['pushState']>); after(); return r; };
  };
  const nav = () => { if (!soon) soon = setTimeout(() => { soon = 0; navigated(); }, 0) as unknown as number; };
  wrap('pushState', nav);
  wrap('replaceState', () => { if (!soon) replaced(); });
  // Back/forward, and a new #hash too (browsers fire popstate for both).
  window.addEventListener('popstate', nav);
};
