import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli/main.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: { entry: { index: 'src/index.ts' } },
  splitting: true,
  sourcemap: true,
  clean: true,
  define: { __VTR_VERSION__: JSON.stringify(pkg.version) },
  // Native addon and data-heavy packages stay in node_modules.
  external: ['better-sqlite3'],
});
