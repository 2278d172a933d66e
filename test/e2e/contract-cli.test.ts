// Contract §7–§8 as an outside test suite drives them: every command and flag of the §8 block with
// its exact spelling, examples in every --help, destructive commands taking --yes, missing input
// (prompt on a TTY, usage error naming the flag otherwise), `--json` field names of §7, a manual
// clock move running the retries due on the way, and a closed stdout pipe ending quietly.
import { spawn, type StdioOptions } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command, Option } from 'commander';
import { buildProgram } from '../../src/cli/program.js';
import { CLI, startServer, type ServerProcess } from '../helpers/vtr-process.js';
import { CLEAN_ENV, envOf, HAS_PTY, parseOne, vtr, vtrJson } from '../helpers/foundation-e2e.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { TIMESTAMP } from '../helpers/service-fields.js';


/** Every command below the root, by its path ("webhooks retry"). */
function commands(program: Command): Map<string, Command> {
  const out = new Map<string, Command>();
  const walk = (cmd: Command, prefix: string) => {
    for (const sub of cmd.commands) {
      if (sub.name() === 'help') continue;
      const path = `${prefix}${sub.name()}`;
      out.set(path, sub);
      walk(sub, `${path} `);
    }
  };
  walk(program, '');
  return out;
}

function helpOf(cmd: Command): string {
  let out = '';
  cmd.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  cmd.outputHelp();
  return out;
}

const flag = (cmd: Command, long: string): Option | undefined => cmd.options.find((o) => o.long === long);

describe('contract §8: commands and flags, exact spelling', () => {
  const program = buildProgram();
  const all = commands(program);

  it('every command of the §8 block exists with its flags and arguments', () => {
    const table: Record<string, { flags?: string[]; args?: string[] }> = {
      serve: { flags: ['--port', '--host', '--db', '--memory', '--clock', '--retry-base', '--retry-schedule', '--retry-jitter', '--webhook-timeout', '--smtp', '--rate-limit', '--import', '--export-on-exit', '--log'] },
      exec: { args: ['command'], flags: ['--port', '--host', '--db', '--memory', '--clock', '--retry-base', '--retry-schedule', '--retry-jitter', '--webhook-timeout', '--smtp', '--rate-limit', '--import', '--export-on-exit', '--log'] },
      check: { flags: ['--probe-id', '--ip', '--email', '--name', '--phone', '--address1', '--address2', '--city', '--state', '--country', '--postal-code', '--data', '--fail-on'] },
      'session get': { args: ['id'] },
      'session event': { args: ['id', 'name'] },
      'sessions list': { flags: ['--where', '--limit'] },
      'sessions create': { flags: ['--ip', '--user-agent', '--url', '--referrer', '--page-views', '--duration'] },
      'sessions simulate': { flags: ['--count', '--seed'] },
      'sites list': {},
      'sites create': { flags: ['--name', '--plan', '--country', '--owner-email'] },
      'sites show': { args: ['id'] },
      'sites update': { args: ['id'], flags: ['--name', '--plan', '--country', '--owner-email'] },
      'sites delete': { args: ['id'], flags: ['--yes'] },
      'keys show': {},
      'keys rotate': { flags: ['--yes'] },
      'tokens list': {},
      'tokens create': {},
      'tokens revoke': { args: ['token'], flags: ['--yes'] },
      'views list': {},
      'views create': { flags: ['--name', '--filter', '--trigger-webhooks'] },
      'views update': { args: ['id'] },
      'views delete': { args: ['id'], flags: ['--yes'] },
      'webhooks list': {},
      'webhooks create': { flags: ['--url'] },
      'webhooks enable': { args: ['id'] },
      'webhooks disable': { args: ['id'] },
      'webhooks delete': { args: ['id'], flags: ['--yes'] },
      'webhooks events': { args: ['webhook-id'], flags: ['--status'] },
      'webhooks event': { args: ['event-id'] },
      'webhooks retry': { args: ['event-id'], flags: ['--all-failed', '--webhook'] },
      'webhooks tail': { flags: ['--webhook'] },
      'webhooks receive': { flags: ['--port', '--fail', '--status', '--delay', '--secret'] },
      'webhooks trigger': { args: ['webhook-id'], flags: ['--session', '--view'] },
      'webhooks secret': { args: ['id'] },
      'notifications list': {},
      'logs list': {},
      'logs tail': {},
      clock: {},
      'clock advance': { args: ['duration'] },
      'clock set': { args: ['timestamp'] },
      'state export': { args: ['file'] },
      'state import': { args: ['file'], flags: ['--yes'] },
      'state reset': { flags: ['--yes'] },
      testvalues: {},
      openapi: {},
    };
    for (const [path, want] of Object.entries(table)) {
      const cmd = all.get(path);
      expect(cmd, path).toBeDefined();
      for (const f of want.flags ?? []) expect(flag(cmd!, f), `${path} ${f}`).toBeDefined();
      expect(cmd!.registeredArguments.map((a) => a.name()), path).toEqual(want.args ?? []);
    }
    for (const f of ['--base-url', '--json', '--no-color', '--quiet', '--secret-key', '--token', '--admin-token', '--site']) {
      expect(flag(program, f), f).toBeDefined();
    }
  });

  it('vtr serve: the flags of §2 with their defaults', () => {
    const serve = all.get('serve')!;
    const defaults = Object.fromEntries(serve.options.map((o) => [o.long, o.defaultValue]));
    expect(defaults).toMatchObject({ '--port': '8787', '--host': '127.0.0.1', '--db': '.vtr/vtr.db', '--clock': 'system', '--retry-base': '2s', '--webhook-timeout': '10s', '--log': 'pretty' });
    expect(flag(serve, '--clock')!.argChoices).toEqual(['system', 'manual', 'frozen']);
    expect(flag(serve, '--log')!.argChoices).toEqual(['pretty', 'json']);
  });

  it('--help: every group and every verb shows examples', () => {
    for (const [path, cmd] of all) {
      const text = helpOf(cmd);
      expect(text, path).toMatch(/\nExamples:\n\s+\$ (npx )?vtr /);
    }
  });
});

describe('contract §7–§8 on the built binary', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startReceiver({ answer: () => 500 });
    server = await startServer(['--memory', '--clock', 'frozen']);
  });
  afterAll(async () => {
    await server?.stop();
    await rx?.close();
  });

  it('missing --count (no TTY): a usage error naming the flag, exit 2, nothing on stdout', async () => {
    const r = await vtr(['sessions', 'simulate', '--json'], server.env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^vtr: usage error: --count/);
  });

  /** Runs `vtr <command>` on a pseudo-terminal and types `answer` once `prompt` shows. */
  async function answerOnTty(command: string, prompt: string, answer: string) {
    const child = spawn('script', ['-qec', `'${process.execPath}' '${CLI}' ${command}`, '/dev/null'], {
      env: envOf(CLEAN_ENV, { CI: undefined, TERM: 'xterm-256color' }, server.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let answered = false;
    const onData = (d: Buffer) => {
      output += d;
      if (!answered && output.includes(prompt)) {
        answered = true;
        child.stdin.write(`${answer}\r`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((r) => child.on('close', r));
    clearTimeout(timer);
    return { code, output, answered };
  }

  it.skipIf(!HAS_PTY)('missing --count on a TTY: asks for it, then runs', async () => {
    const { code, output, answered } = await answerOnTty('sessions simulate', 'how many sessions', '3');
    expect(answered, output).toBe(true);
    expect(code, output).toBe(0);
    expect(output).toContain('Simulated 3 sessions');
  });

  it.skipIf(!HAS_PTY)('missing <id> on a TTY: asks for it, then runs with the answer', async () => {
    const { code, output, answered } = await answerOnTty('session get', 'id', 'ses_asked_for');
    expect(answered, output).toBe(true);
    // The answer was used: the server looked the session up (and it does not exist).
    expect(code, output).toBe(1);
    expect(output).toContain('session ses_asked_for not found');
  });

  it('missing <id> without a TTY: a usage error naming it, exit 2', async () => {
    const r = await vtr(['session', 'get'], server.env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("missing required argument 'id'");
  });

  it('a --base-url without /api/v1: exit 1 and the message says how to fix it', async () => {
    const r = await vtr(['check', '--email', 'a@example.com', '--base-url', server.origin]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`ending in /api/v1 (e.g. ${server.origin}/api/v1)`);
  });

  it('tokens revoke accepts --yes; --json prints the revoked token alone', async () => {
    const token = await vtrJson(['tokens', 'create'], server.env);
    const r = await vtr(['tokens', 'revoke', token.token, '--yes', '--json'], server.env);
    expect(r.code, r.stderr).toBe(0);
    expect(parseOne(r.stdout)).toMatchObject({ token: token.token, revoked_at: expect.stringMatching(TIMESTAMP) });
    const refused = await vtr(['session', 'get', 'ses_x', '--token', token.token], server.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/401/);
  });

  it('`vtr clock advance 2m` takes a failing event through every retry to `failed`; §7 field names in --json', async () => {
    const env = server.env;
    const site = (await vtrJson(['sites', 'list'], env))[0];
    expect(Object.keys(site)).toEqual(expect.arrayContaining([
      'site_id', 'name', 'plan', 'country', 'owner_email', 'site_key', 'secret_key', 'conversion_events', 'bounce_seconds',
      'excluded_countries', 'ip_allowlist', 'created_at',
    ]));
    expect(site).toMatchObject({ name: 'Local site', plan: 'paid', country: 'US', created_at: expect.stringMatching(TIMESTAMP) });
    const [token] = await vtrJson(['tokens', 'list'], env);
    expect(Object.keys(token)).toEqual(expect.arrayContaining(['token', 'site_id', 'created_at', 'revoked_at']));
    const hook = await vtrJson(['webhooks', 'create', '--url', rx.url], env);
    expect(Object.keys(hook)).toEqual(expect.arrayContaining(['webhook_id', 'site_id', 'url', 'status', 'secret', 'consecutive_failures', 'created_at']));
    expect(hook).toMatchObject({ status: 'enabled', secret: expect.stringMatching(/^whsec_/) });
    const view = await vtrJson(['views', 'create', '--name', 'All', '--filter', 'page_views >= 1', '--trigger-webhooks'], env);
    expect(Object.keys(view)).toEqual(expect.arrayContaining(['saved_view_id', 'site_id', 'name', 'filter', 'trigger_webhooks', 'created_at']));
    expect(await vtrJson(['views', 'list'], env)).toEqual([expect.objectContaining({ saved_view_id: view.saved_view_id })]);
    await vtrJson(['sessions', 'create'], env);
    await vtrJson(['clock', 'advance', '0s'], env);
    const [first] = await vtrJson(['webhooks', 'events', hook.webhook_id], env);
    expect(first).toMatchObject({ status: 'retrying', attempts: [{ attempt: 1, status_code: 500 }] });

    const clock = await vtrJson(['clock', 'advance', '2m'], env);
    expect(Object.keys(clock).sort()).toEqual(['mode', 'now', 'offset_ms']);
    expect(clock).toMatchObject({ mode: 'frozen', now: expect.stringMatching(TIMESTAMP) });
    const failed = await vtrJson(['webhooks', 'events', hook.webhook_id, '--status', 'failed'], env);
    expect(failed).toHaveLength(1);
    const ev = failed[0];
    expect(Object.keys(ev)).toEqual(expect.arrayContaining([
      'webhook_event_id', 'webhook_id', 'saved_view_id', 'session_id', 'status', 'auto_retries_remaining', 'next_attempt_at', 'created_at', 'attempts',
    ]));
    expect(ev).toMatchObject({ status: 'failed', auto_retries_remaining: 0, next_attempt_at: null });
    expect(ev.attempts).toHaveLength(6);
    for (const a of ev.attempts) {
      expect(Object.keys(a)).toEqual(expect.arrayContaining(['attempt', 'trigger', 'at', 'status_code', 'error', 'duration_ms']));
      expect(a).toMatchObject({ trigger: 'auto', status_code: 500, error: null, at: expect.stringMatching(TIMESTAMP) });
    }
    const [note] = await vtrJson(['notifications', 'list'], env);
    expect(Object.keys(note)).toEqual(expect.arrayContaining([
      'notification_id', 'kind', 'site_id', 'webhook_id', 'webhook_event_id', 'to', 'subject', 'body', 'created_at',
    ]));
    expect(note).toMatchObject({ kind: 'webhook_event_failed', webhook_event_id: ev.webhook_event_id, to: site.owner_email });
    // Now the manual retry is allowed (one attempt; it fails again here: exit 1, the event on stdout).
    const retry = await vtr(['webhooks', 'retry', ev.webhook_event_id, '--json'], env);
    expect(retry.code).toBe(1);
    expect(parseOne(retry.stdout).attempts.at(-1)).toMatchObject({ attempt: 7, trigger: 'manual' });
  });

  it('a reader that closes the pipe early (`vtr ... | head`): exit 0, no EPIPE stack trace', async () => {
    const child = spawn(process.execPath, [CLI, 'openapi'], { env: envOf(CLEAN_ENV), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(code).toBe(0);
  });

  /** Runs the built CLI with stdout or stderr on /dev/full (every write fails with ENOSPC). */
  async function onFullDevice(args: string[], which: 'stdout' | 'stderr'): Promise<{ code: number | null; text: string }> {
    const full = openSync('/dev/full', 'w');
    try {
      const stdio: StdioOptions = which === 'stdout' ? ['ignore', full, 'pipe'] : ['ignore', 'pipe', full];
      const child = spawn(process.execPath, [CLI, ...args], { env: envOf(CLEAN_ENV), stdio });
      let text = '';
      (which === 'stdout' ? child.stderr : child.stdout)!.on('data', (d) => (text += d));
      const code = await new Promise<number | null>((r) => child.on('close', r));
      return { code, text };
    } finally {
      closeSync(full);
    }
  }

  it.runIf(existsSync('/dev/full'))('stdout on a full disk (`vtr ... > out.json`): exit 1 saying the output could not be written, no stack trace', async () => {
    const r = await onFullDevice(['openapi'], 'stdout');
    expect(r.text).toMatch(/^vtr: error: cannot write to stdout: .*no space left on device/im);
    expect(r.text).not.toMatch(/\bat |node:internal|throw err/);
    expect(r.code).toBe(1);
  });

  it.runIf(existsSync('/dev/full'))('stderr that cannot be written loses the messages, not the exit code', async () => {
    const usage = await onFullDevice(['check', '--fail-on', 'bogus'], 'stderr');
    expect(usage.code).toBe(2);
    const ok = await onFullDevice(['openapi'], 'stderr');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.text)).toMatchObject({ openapi: expect.stringMatching(/^3\.1/) });
  });
});
