import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { defineConfig } from 'tsup';
import type { Plugin } from 'esbuild';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

// zod's `z` re-exports all 64 of its locales (~370 KB, half of bundled zod), which the first
// startEmulator() would parse and never use: vtr's messages are English, so the bundled copy keeps
// `locales.en` alone (docs/performance.md, Start-up).
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer) ? { path: 'locales', namespace: 'zod-english', pluginData: dirname(args.importer) } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js';",
      resolveDir: args.pluginData as string,
    }));
  },
};

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
    // ipaddr.js is CommonJS: imported from ESM, Node first parses it for its export names, with a
    // parser it loads for that alone; bundled, neither happens.
    noExternal: ['zod', 'hono', '@hono/node-server', 'ipaddr.js'],
    esbuildPlugins: [zodEnglishOnly],
  },
  {
    // Browser scripts (src/browser), read by the server from dist/browser (src/server/browser-scripts.ts).
    entry: {
      agent: 'src/browser/agent.ts', console: 'src/browser/console.ts', demo: 'src/browser/demo.ts',
      'console-stream-worker': 'src/browser/console-stream-worker.ts',
    },
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
