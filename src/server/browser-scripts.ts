// The browser scripts (src/browser) are bundled by the build into dist/browser. The server reads
// them from the package's dist/, whether it runs from dist/ (the package) or from src/ (tests,
// after a build): the package root is found by walking up from this module.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VtrError } from '../domain/errors.js';

export type BrowserScriptName = 'agent' | 'console' | 'console-stream-worker' | 'demo';

export interface BrowserScripts {
  /** The bundled script; a 503 `not_built` error when the build has not made it. */
  get(name: BrowserScriptName): string;
  /** A short hash of the script: in its URL, a changed script is a new one (a SharedWorker's identity is its URL). */
  hash(name: BrowserScriptName): string;
}

/** The nearest directory at or above `from` holding vtr's package.json, or null. */
export function packageRoot(from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        if ((JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'vtr') return dir;
      } catch {
        // Not a readable package.json: keep walking.
      }
    }
    if (dirname(dir) === dir) return null;
  }
}

export function createBrowserScripts(dir: string | null): BrowserScripts {
  const cache = new Map<BrowserScriptName, string>();
  const hashes = new Map<string, string>();
  return {
    hash(name) {
      const text = this.get(name);
      let h = hashes.get(text);
      if (!h) hashes.set(text, (h = createHash('sha256').update(text).digest('hex').slice(0, 12)));
      return h;
    },
    get(name) {
      const hit = cache.get(name);
      if (hit !== undefined) return hit;
      const file = dir && join(dir, `${name}.js`);
      // A missing file is not cached: a build while the server runs fixes it.
      if (!file || !existsSync(file)) {
        throw new VtrError('not_built', `the browser script ${name}.js is not built (looked in ${dir ?? 'no vtr package directory'}): run npm run build`);
      }
      const text = readFileSync(file, 'utf8');
      cache.set(name, text);
      return text;
    },
  };
}

const root = packageRoot(dirname(fileURLToPath(import.meta.url)));
/** The scripts of this package's build (dist/browser). */
export const browserScripts: BrowserScripts = createBrowserScripts(root && join(root, 'dist', 'browser'));
