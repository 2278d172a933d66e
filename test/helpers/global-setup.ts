// Runs once before the suite (vitest.config.ts globalSetup): the e2e tests spawn bin/vtr, which runs
// dist/, so a dist/ older than any source file is rebuilt first (`npx tsup`, as `npm test` does)
// rather than tested stale. Skipped when VTR_CLI points the tests at another build.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

function newest(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

function builtAt(): number {
  try {
    return statSync(join(root, 'dist', 'cli.js')).mtimeMs;
  } catch {
    return 0; // never built
  }
}

export default function setup(): void {
  if (process.env.VTR_CLI) return;
  const sources = Math.max(newest(join(root, 'src')), newest(join(root, 'tsup.config.ts')), newest(join(root, 'package.json')));
  if (builtAt() >= sources) return;
  process.stderr.write('vtr tests: dist/ is older than src/; building it first (npx tsup)…\n');
  const r = spawnSync('npx', ['tsup'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`npx tsup failed (exit ${r.status}): the e2e tests would run a stale dist/`);
}
