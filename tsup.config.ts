import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig([
  {
    // checkpoint-worker: a worker thread's entry (src/store/checkpointer.ts loads it beside itself).
    entry: { index: 'src/index.ts', msw: 'src/msw.ts', cli: 'src/cli/main.ts', 'checkpoint-worker': 'src/store/checkpoint-worker.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    dts: { entry: { index: 'src/index.ts', msw: 'src/msw.ts' } },
    splitting: true,
    sourcemap: true,
    clean: ['!browser/**'],
    define: { __VTR_VERSION__: JSON.stringify(pkg.version) },
    // Native addon and data-heavy packages stay in node_modules.
    external: ['better-sqlite3', 'msw'],
    // zod ships ~95 ES modules; bundled into vtr's chunks they load as one file at the first
    // startEmulator() (zod keeps its schema registry on globalThis, shared with @hono/zod-openapi's copy).
    noExternal: ['zod', 'hono', '@hono/node-server'],
  },
  {
    // Browser scripts (src/browser), read by the server from dist/browser (src/server/browser-scripts.ts).
    entry: { agent: 'src/browser/agent.ts', console: 'src/browser/console.ts', demo: 'src/browser/demo.ts' },
    outDir: 'dist/browser',
    format: ['iife'],
    outExtension: () => ({ js: '.js' }),
    platform: 'browser',
    target: 'es2017',
    tsconfig: 'src/browser/tsconfig.json',
    minify: true,
    sourcemap: false,
    clean: true,
    banner: { js: `/* vtr ${pkg.version} */` },
  },
]);
