// A suite's `vtr serve --memory` and one Chromium page on it, started before its tests and closed
// after: the console's browser tests that follow live changes made elsewhere (the API, the CLI).
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type ServerProcess } from './vtr-process.js';
import { launchChromium } from './browser.js';
import { adminApi } from './admin.js';

export function consoleInBrowser() {
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    server = await startServer(['--memory']);
    browser = await launchChromium();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get server(): ServerProcess { return server!; },
    get page(): Page { return page!; },
    /** The management API, as the CLI would change things beside the open page. */
    api: <T = any>(method: string, path: string, body?: unknown) => adminApi<T>(server!.origin, method, path, body),
    poll: <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 100 }),
  };
}
