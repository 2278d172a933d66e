// A suite that had webhooks delivered ends as soon as it closes the emulator and its receiver:
// close() leaves no socket open, and a delivery compiles no WebAssembly (an HTTP client's parser
// that V8 goes on optimising in the background, which Node waits for before the process may exit).
// The built package, in a process of its own, as a user's suite loads it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const LIB = pathToFileURL(resolve('dist/index.js')).href; // npm test builds first

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function run(listen: boolean): { wasm: number; after: string[] } {
  dir = mkdtempSync(join(tmpdir(), 'vtr-close-exit-'));
  const script = `import { createServer } from 'node:http';
    let wasm = 0;
    const Module = WebAssembly.Module;
    WebAssembly.Module = function (...args) { wasm++; return new Module(...args); };
    for (const k of ['compile', 'instantiate']) { const f = WebAssembly[k]; WebAssembly[k] = (...a) => { wasm++; return f(...a); }; }
    const { startEmulator } = await import(${JSON.stringify(LIB)});
    const rx = createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(200).end('ok')); });
    await new Promise((r) => rx.listen(0, '127.0.0.1', r));
    const emu = await startEmulator({ listen: ${listen} });
    await emu.views.create({ name: 'tor', filter: 'risks contains tor' });
    await emu.webhooks.create('http://127.0.0.1:' + rx.address().port + '/hook');
    // Node's own fetch compiles its parser when the process first makes a Request (above); the
    // delivery is to compile nothing more.
    wasm = 0;
    const s = await emu.sessions.create({ ip: '203.0.113.7' });
    await emu.webhooks.waitFor({ sessionId: s.session_id });
    await emu.close();
    await new Promise((r) => rx.close(r));
    // A closed handle leaves the list once libuv has closed it, a few turns later.
    for (let i = 0; i < 50 && process.getActiveResourcesInfo().some((r) => r.startsWith('TCP')); i++) await new Promise((r) => setTimeout(r, 10));
    console.log(JSON.stringify({ wasm, after: process.getActiveResourcesInfo() }));`;
  writeFileSync(join(dir, 'suite.mjs'), script);
  const child = spawnSync(process.execPath, [join(dir, 'suite.mjs')], { encoding: 'utf8', timeout: 15_000 });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout.trim().split('\n').pop()!);
}

describe('library: exit after close', () => {
  for (const listen of [true, false]) {
    it(`close: with listen ${listen}, after a webhook delivery nothing is left to hold the process`, () => {
      const { wasm, after } = run(listen);
      expect(after.filter((r) => /TCP|Timeout|Immediate/.test(r))).toEqual([]);
      expect(wasm).toBe(0);
    }, 30_000);
  }
});
