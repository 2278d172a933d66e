// Headless Debian Chromium driven by playwright-core (no browser download). Under CI the browser
// tests must run, so they are skipped only when Chromium is missing and CI is not set.
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export const CHROMIUM = process.env.VTR_CHROMIUM ?? '/usr/bin/chromium';
export const BROWSER_TESTS_RUN = existsSync(CHROMIUM) || !!process.env.CI;
if (!BROWSER_TESTS_RUN) console.warn(`vtr tests: browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set VTR_CHROMIUM); under CI they run`);

// Without the background-networking flags Chromium keeps dialling out of this closed network.
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 60_000 });
}
