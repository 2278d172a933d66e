// Headless Debian Chromium driven by playwright-core (no browser download). Under CI the browser
// tests must run, so they are skipped only when Chromium is missing and CI is not set.
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = process.env.VTR_CHROMIUM ?? '/usr/bin/chromium';
export const BROWSER_TESTS_RUN = existsSync(CHROMIUM) || !!process.env.CI;
if (!BROWSER_TESTS_RUN) console.warn(`vtr tests: browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set VTR_CHROMIUM); under CI they run`);

// Without the background-networking flags Chromium keeps dialling out of this closed network.
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** `backForwardCache`: keep pages left in the back/forward cache, as browsers do (playwright turns it off). */
export async function launchChromium(o: { backForwardCache?: boolean } = {}): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const ignoreDefaultArgs = o.backForwardCache ? ['--disable-back-forward-cache'] : undefined;
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 60_000, ignoreDefaultArgs });
}

const CONTROLS = new Set(['link', 'button', 'DisclosureTriangle']);

interface AXNode { nodeId: string; ignored: boolean; role?: { value: string }; name?: { value: string }; childIds?: string[] }

/** "role: name" of every link, button and disclosure inside <main>, as Chromium exposes them. */
export async function controlNames(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] };
  await cdp.detach();
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const names: string[] = [];
  const walk = (n: AXNode | undefined): void => {
    if (!n) return;
    if (!n.ignored && CONTROLS.has(n.role?.value ?? '')) names.push(`${n.role!.value}: ${n.name?.value ?? ''}`);
    for (const c of n.childIds ?? []) walk(byId.get(c));
  };
  walk(nodes.find((n) => n.role?.value === 'main'));
  return names;
}

/** A site's own pages on another origin than the emulator's (`http://localhost:<port>`): `body` gives each path's HTML. */
export async function serveShopPages(body: (path: string) => string): Promise<{ origin: string; close: () => Promise<void> }> {
  const { createServer } = await import('node:http');
  const shop = createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><title>Shop</title>${body(new URL(req.url!, 'http://x').pathname)}`);
  });
  await new Promise<void>((res) => shop.listen(0, '127.0.0.1', res));
  const { port } = shop.address() as { port: number };
  return { origin: `http://localhost:${port}`, close: () => new Promise((res) => shop.close(() => res())) };
}
