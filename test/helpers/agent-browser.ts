// A suite's `vtr serve --memory`, a shop serving its own pages on another origin, and Chromium:
// the agent as sites embed it. Started before the suite's tests and closed after.
import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, type ServerProcess } from './vtr-process.js';
import { launchChromium, serveShopPages } from './browser.js';

/** `pagesOf` gives, from the started server (its agent URL and keys), each shop path's HTML. */
export function agentOnShopPages(pagesOf: (server: ServerProcess) => (path: string) => string) {
  let server: ServerProcess | undefined;
  let shop: Awaited<ReturnType<typeof serveShopPages>> | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(['--memory']);
    shop = await serveShopPages(pagesOf(server));
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
    await server?.stop();
  });
  return {
    get server(): ServerProcess { return server!; },
    get browser(): Browser { return browser!; },
    /** The shop's origin: `http://localhost:<port>`. */
    get origin(): string { return shop!.origin; },
    /** GET /api/v1/session/{id} with the default site's token. */
    async session(id: string): Promise<Record<string, unknown>> {
      const res = await fetch(`${server!.baseUrl}/session/${id}`, { headers: { authorization: `Bearer ${server!.site!.access_token}` } });
      return (await res.json()) as Record<string, unknown>;
    },
  };
}
