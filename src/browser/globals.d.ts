// What the browser scripts put on `window`: the agent's API (pages call it) and the console's
// helpers (each console page's own inline script calls them).

interface VtrAgent {
  version: string;
  event(name: string, opts?: { value?: number }): Promise<unknown>;
  pageview(): Promise<unknown>;
  probe(ms?: number): Promise<string | null>;
  probeId(): string | null;
  sessionId(): string | null;
  /** A second copy of the agent on the page hands the first the site key it lacked. */
  key?(siteKey: string): void;
  /** The page's stub (before the agent loaded) queues calls here: [method, arguments, resolve]. */
  q?: Array<[string, ArrayLike<unknown>, ((answer: unknown) => void)?]>;
}

interface VtrRowOptions {
  /** Replace the row if it is on the page; never add it. */
  onlyReplace?: boolean;
  /** Rows kept in the table (default 200). */
  max?: number;
}

interface Window {
  vtr?: VtrAgent;
  vtrAnnounce(msg: string): void;
  vtrLive(types: string[], fn: (type: string, data: any) => void): void;
  vtrRow(url: string, rowId: string, bodyId: string, opts?: VtrRowOptions): void;
  vtrRefresh(id: string, ok?: (old: Element, fresh: Element) => boolean): void;
  vtrSiteChoices(id: string): void;
  vtrPage: import('./console-pages.js').ConsolePages;
}
