// The published package as a consumer's project imports it: `npm pack`, unpacked into a scratch
// project's node_modules (its dependencies linked from ours), then `vtr` and `vtr/msw` imported by
// plain Node and type-checked by tsc against the shipped .d.ts files.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/vtr-process.js';

const ROOT = resolve(import.meta.dirname, '../..');
let project = '';
let packed = '';

/** A scratch project with the packed vtr unpacked in its node_modules, its other packages linked from ours (`msw` → `mswFrom`; null: no msw). */
function consumerProject(mswFrom: string | null = 'msw'): string {
  const dir = tempDir('vtr-consumer-');
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, 'vtr'), { recursive: true });
  execFileSync('tar', ['xzf', packed, '-C', join(modules, 'vtr'), '--strip-components=1']);
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name === '.bin' || name.startsWith('.') || name === 'vtr' || name === 'msw') continue;
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  }
  if (mswFrom) symlinkSync(join(ROOT, 'node_modules', mswFrom), join(modules, 'msw'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
  return dir;
}

/** tsc over the project; a failure shows tsc's messages. */
function typeCheck(dir: string): void {
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, encoding: 'utf8' });
  } catch (err) {
    throw new Error(`tsc failed in ${dir}:\n${(err as { stdout?: string }).stdout ?? String(err)}`);
  }
}

beforeAll(() => {
  const out = tempDir('vtr-pack-');
  packed = join(out, execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', out], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').pop()!);
  project = consumerProject();
}, 120_000);

describe('the packed package, as a consumer imports it', () => {
  it('package: vtr and vtr/msw run from node_modules', () => {
    writeFileSync(join(project, 'use.mjs'), `
      import { startEmulator } from 'vtr';
      import { createHandlers } from 'vtr/msw';
      import { setupServer } from 'msw/node';
      const emu = await startEmulator();
      const out = {};
      const s = await emu.sessions.create({ ip: '203.0.113.7' });
      out.get = (await emu.sessions.get(s.session_id)).risk_level;
      await emu.events.add(s.session_id, 'signup');
      out.events = (await emu.sessions.get(s.session_id)).custom_events;
      out.list = (await emu.sessions.list('risk_level = invalid')).length;
      out.check = (await emu.check({ email: 'a@mailinator.com' })).risk_level;
      out.view = (await emu.views.create({ name: 'all tor', filter: 'risks contains tor' })).trigger_webhooks;
      out.webhook = (await emu.webhooks.create('http://127.0.0.1:9/nowhere')).status;
      out.events_before_reset = (await emu.webhooks.events()).length;
      const keys = { ...emu.site };
      await emu.reset();
      out.reset = (await emu.sessions.list()).length;
      out.same_keys = JSON.stringify(keys) === JSON.stringify(emu.site) && (await emu.check({ ip: '192.0.2.1' })).risk_level === 'normal';
      out.fetch = (await emu.fetch('/_vtr/health')).status;
      const vtr = await createHandlers({ baseUrl: 'https://risk.example.invalid/api/v1' });
      const server = setupServer(...vtr.handlers);
      server.listen({ onUnhandledRequest: 'error' });
      const res = await fetch('https://risk.example.invalid/api/v1/event', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ secret_key: vtr.emulator.site.secretKey, ip: '203.0.113.7' }),
      });
      out.msw = (await res.json()).risk_level;
      server.close();
      await vtr.close();
      await emu.close();
      console.log(JSON.stringify(out));
    `);
    const out = JSON.parse(execFileSync(process.execPath, ['use.mjs'], { cwd: project, encoding: 'utf8' }));
    expect(out).toEqual({
      get: 'invalid', events: ['signup'], list: 1, check: 'suspicious', view: true, webhook: 'enabled',
      events_before_reset: 0, reset: 0, same_keys: true, fetch: 200, msw: 'invalid',
    });
  }, 60_000);

  it('package: in a project without msw, vtr/msw says to install it, not only that a package is missing', () => {
    const bare = consumerProject(null);
    writeFileSync(join(bare, 'use.mjs'), `
      const out = {};
      try {
        const { createHandlers } = await import('vtr/msw');
        await createHandlers({ baseUrl: 'https://risk.example.invalid/api/v1' });
        out.error = null;
      } catch (err) {
        out.error = err.message;
      }
      console.log(JSON.stringify(out));
    `);
    const out = JSON.parse(execFileSync(process.execPath, ['use.mjs'], { cwd: bare, encoding: 'utf8' }));
    expect(out.error).toBe('vtr/msw needs msw, v2 or v3, installed in your project as a dev dependency: npm i -D msw');
  }, 60_000);

  // Node 20.19 and 22.12 load an ES module with require(): a CommonJS test suite takes vtr as it is.
  const [major, minor] = process.versions.node.split('.').map(Number);
  const requiresEsm = major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
  it.runIf(requiresEsm)('package: a CommonJS project requires vtr and vtr/msw, and its types check', () => {
    writeFileSync(join(project, 'use.cjs'), `
      const { startEmulator } = require('vtr');
      const { createHandlers } = require('vtr/msw');
      (async () => {
        const emu = await startEmulator({ listen: false });
        const check = await emu.check({ email: 'a@mailinator.com' });
        await emu.close();
        console.log(JSON.stringify({ check: check.risk_level, msw: typeof createHandlers }));
      })();
    `);
    const out = JSON.parse(execFileSync(process.execPath, ['use.cjs'], { cwd: project, encoding: 'utf8' }));
    expect(out).toEqual({ check: 'suspicious', msw: 'function' });
    writeFileSync(join(project, 'use.cts'), `
      import vtr = require('vtr');
      import msw = require('vtr/msw');
      export async function typed(): Promise<void> {
        const emu: vtr.RunningEmulator = await vtr.startEmulator({ listen: false });
        const h: msw.VtrHandlers = await msw.createHandlers({ baseUrl: 'https://x.invalid/api/v1', emulator: emu });
        void h;
      }
    `);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: true, types: ['node'] },
      files: ['use.cts'],
    }));
    typeCheck(project);
  }, 60_000);

  it('package: the shipped types describe every helper\'s input and answer', () => {
    writeFileSync(join(project, 'use.ts'), `
      import { startEmulator, type RunningEmulator, type Session, type CheckResult, type WebhookEvent, type Rule, type RuleInput } from 'vtr';
      import { createHandlers, type VtrHandlers } from 'vtr/msw';
      export async function typed(): Promise<void> {
        const emu: RunningEmulator = await startEmulator({ clock: 'manual', listen: false });
        const s: Session = await emu.sessions.create({ ip: '192.0.2.1', page_views: 2 });
        const level: 'normal' | 'unwanted' | 'suspicious' | 'invalid' | null = s.risk_level;
        const r: CheckResult = await emu.check({ email: 'a@example.com', address: { country: 'US' } });
        const e: WebhookEvent = await emu.webhooks.waitFor({ sessionId: s.session_id, status: 'delivered', timeoutMs: 1 });
        const h: VtrHandlers = await createHandlers({ baseUrl: 'https://x.invalid/api/v1', emulator: emu });
        // @ts-expect-error: page_views is a number
        await emu.sessions.create({ page_views: 'two' });
        const input: RuleInput = { filter: 'risks contains tor', action: 'block' };
        const rule: Rule = await emu.rules.create(input);
        const outcome: 'allowed' | 'blocked' | 'neutral' = r.outcome;
        // @ts-expect-error: an action the API refuses
        await emu.rules.create({ filter: 'x = 1', action: 'smite' });
        void [level, r.email?.disposable, e.attempts.length, h.handlers.length, rule.rule_id, outcome];
      }
    `);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: true, types: ['node'] },
      files: ['use.ts'],
    }));
    typeCheck(project);
  }, 60_000);

  it('package: every type a user names for what startEmulator takes and answers is exported (ClockMode, the site\'s keys, the helpers, the client\'s options)', () => {
    writeFileSync(join(project, 'names.ts'), `
      import {
        startEmulator, type ClockMode, type EmulatorSite, type EmulatorHelpers, type EmulatorClock, type ApiClient, type ApiRequestOptions,
        type HttpMethod, type StartEmulatorOptions, type RunningEmulator, type WaitForOptions, type WebhookEventFilter, type ClientOptions,
      } from 'vtr';
      import type { CreateHandlersOptions, VtrHandlers } from 'vtr/msw';
      export async function typed(opts: StartEmulatorOptions, h: CreateHandlersOptions): Promise<void> {
        const emu: RunningEmulator = await startEmulator(opts);
        const mode: ClockMode = emu.clock.mode;
        const clock: EmulatorClock = emu.clock;
        const site: EmulatorSite = emu.site;
        const helpers: EmulatorHelpers = emu;
        const client: ApiClient = emu.client;
        const method: HttpMethod = 'GET';
        const req: ApiRequestOptions = { query: { limit: 1 } };
        await client.admin(method, '/sessions', req);
        const w: WaitForOptions = { sessionId: 'ses_x' };
        const f: WebhookEventFilter = { status: 'failed' };
        const c: ClientOptions = client.options;
        void [mode, clock, site.siteKey, helpers.sessions, w, f, c, h.baseUrl, null as unknown as VtrHandlers];
      }
    `);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: true, types: ['node'] },
      files: ['names.ts'],
    }));
    typeCheck(project);
  }, 60_000);

  it('package: vtr and vtr/msw type-check under every moduleResolution a project may use (node, bundler, nodenext)', () => {
    writeFileSync(join(project, 'resolve.ts'), `
      import { startEmulator, type RunningEmulator } from 'vtr';
      import { createHandlers, type VtrHandlers } from 'vtr/msw';
      import { setupServer } from 'msw/node';
      export async function typed(): Promise<void> {
        const emu: RunningEmulator = await startEmulator({ listen: false });
        const h: VtrHandlers = await createHandlers({ baseUrl: 'https://x.invalid/api/v1', emulator: emu });
        setupServer(...h.handlers);
      }
    `);
    for (const [module, moduleResolution] of [['esnext', 'node'], ['esnext', 'bundler'], ['nodenext', 'nodenext']]) {
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module, moduleResolution, target: 'es2022', skipLibCheck: true, types: ['node'] },
        files: ['resolve.ts'],
      }));
      typeCheck(project);
    }
  }, 60_000);

  it('package: vtr/msw answers through msw 3 as through msw 2', () => {
    // msw 3 (the version `npm install msw` gives today) as the project's msw; vtr's dev dependency
    // `msw-v3` is it under another name. It asks for Node 22.12; on an older Node the one API its
    // interceptors use that the older Node lacks (Promise.withResolvers) is added first.
    const v3 = consumerProject('msw-v3');
    writeFileSync(join(v3, 'with-resolvers.mjs'), `
      Promise.withResolvers ??= function () {
        let resolve, reject;
        const promise = new this((a, b) => { resolve = a; reject = b; });
        return { promise, resolve, reject };
      };
    `);
    writeFileSync(join(v3, 'use.mjs'), `
      import { readFileSync } from 'node:fs';
      import { setupServer } from 'msw/node';
      import { createHandlers } from 'vtr/msw';
      const out = { msw: JSON.parse(readFileSync('node_modules/msw/package.json', 'utf8')).version.split('.')[0] };
      const vtr = await createHandlers({ baseUrl: 'https://risk.example.invalid/api/v1' });
      const server = setupServer(...vtr.handlers);
      server.listen({ onUnhandledFrame: 'error' }); // msw 3's name for onUnhandledRequest
      const check = await fetch('https://risk.example.invalid/api/v1/event', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ secret_key: vtr.emulator.site.secretKey, ip: '203.0.113.7', email: 'a@mailinator.com' }),
      });
      out.check = [check.status, (await check.json()).outcome];
      const s = await vtr.emulator.sessions.create({ ip: '192.0.2.30' });
      const auth = { authorization: 'Bearer ' + vtr.emulator.site.accessToken };
      const got = await fetch('https://risk.example.invalid/api/v1/session/' + s.session_id, { headers: auth });
      out.session = [got.status, (await got.json()).session_id === s.session_id];
      const missing = await fetch('https://risk.example.invalid/api/v1/session/ses_missing', { headers: auth });
      out.missing = [missing.status, (await missing.json()).code];
      server.close();
      await vtr.close();
      console.log(JSON.stringify(out));
    `);
    const major = Number(process.versions.node.split('.')[0]);
    const args = major < 22 ? ['--import', './with-resolvers.mjs', 'use.mjs'] : ['use.mjs'];
    const out = JSON.parse(execFileSync(process.execPath, args, { cwd: v3, encoding: 'utf8' }));
    expect(out).toEqual({ msw: '3', check: [200, 'blocked'], session: [200, true], missing: [404, 'not_found'] });
    // The shipped types accept msw 3's setupServer too.
    writeFileSync(join(v3, 'use.ts'), `
      import { setupServer } from 'msw/node';
      import { createHandlers, type VtrHandlers } from 'vtr/msw';
      export async function typed(): Promise<void> {
        const h: VtrHandlers = await createHandlers({ baseUrl: 'https://x.invalid/api/v1' });
        setupServer(...h.handlers).listen();
      }
    `);
    writeFileSync(join(v3, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: true, types: [] },
      files: ['use.ts'],
    }));
    typeCheck(v3);
  }, 60_000);

  it('package: the MSW set-up of docs/library.md type-checks with msw 2 as written, and with msw 3 as its comment says', () => {
    const docs = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
    const setup = /```ts\n(\/\/ test\/setup\.ts\n[\s\S]*?)```/.exec(docs)?.[1];
    expect(setup).toBeDefined();
    // msw 3 renamed the option (and ignores the old name: an unhandled request would only warn).
    const line = setup!.split('\n').find((l) => l.includes('onUnhandledRequest'))!;
    const v3Option = /\/\/ msw 3: (\{.*\})/.exec(line)?.[1];
    expect(v3Option, `the docs' listen line says what msw 3 takes: ${line}`).toBeDefined();
    const tsconfig = JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: true, types: ['node'] },
      files: ['setup.ts'],
    });
    for (const [dir, text] of [[project, setup!], [consumerProject('msw-v3'), setup!.replace("{ onUnhandledRequest: 'error' }", v3Option!)]]) {
      writeFileSync(join(dir, 'setup.ts'), text);
      writeFileSync(join(dir, 'tsconfig.json'), tsconfig);
      typeCheck(dir);
    }
  }, 120_000);

  it('package: the vitest example of docs/library.md passes as written, its webhook delivered to a receiver it starts', () => {
    const docs = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
    const example = /```ts\n(\/\/ test\/signup\.test\.ts\n[\s\S]*?)```/.exec(docs)?.[1];
    expect(example).toBeDefined();
    const dir = consumerProject();
    mkdirSync(join(dir, 'test'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'test/signup.test.ts'), example!);
    // The app the example names as a placeholder: a sign-up refused for invalid traffic.
    writeFileSync(join(dir, 'src/app.ts'), `
      import { Hono } from 'hono';
      export function createApp(): Hono {
        return new Hono().post('/signup', async (c) => {
          const res = await fetch(process.env.RISK_API_BASE + '/event', {
            method: 'POST', headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ secret_key: process.env.RISK_SECRET_KEY, ip: c.req.header('x-forwarded-for') }),
          });
          const { risk_level } = (await res.json()) as { risk_level: string };
          return c.json({ risk_level }, risk_level === 'invalid' ? 403 : 201);
        });
      }
    `);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: true, types: ['node'] },
      files: ['test/signup.test.ts', 'src/app.ts'],
    }));
    typeCheck(dir);
    const vitest = join(ROOT, 'node_modules/vitest/vitest.mjs');
    try {
      execFileSync(process.execPath, [vitest, 'run', '--root', dir, '--reporter', 'dot'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      const { stdout, stderr } = err as { stdout?: string; stderr?: string };
      throw new Error(`the example failed:\n${stdout ?? ''}${stderr ?? String(err)}`);
    }
  }, 120_000);
});
