import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Command, CommanderError } from 'commander';
import { buildProgram } from '../../src/cli/program.js';
import { exitCodeFor, OperationError, ThresholdReached, UsageError } from '../../src/cli/errors.js';
import { resolveConfig, DEFAULT_BASE_URL } from '../../src/cli/context.js';
import { parseServeOptions, type ServeOptions } from '../../src/cli/commands/serve/serve.js';
import { siteBody } from '../../src/cli/commands/sites/site-input.js';
import { ApiError, ConnectionError } from '../../src/client/api-client.js';
import { AnswerTimeout } from '../../src/client/http.js';
import { asFlagError, reportError } from '../../src/cli/run-command.js';

const FOUNDATION_GROUPS = ['serve', 'sites', 'keys', 'tokens', 'session', 'sessions', 'clock'];

/** The full help text of a command, including "after" texts such as examples. */
function helpOf(cmd: Command): string {
  let out = '';
  cmd.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  cmd.outputHelp();
  return out;
}

/** Every runnable command of the foundation groups: `serve`, `clock`, and each `<group> <verb>`. */
function verbs(program: Command): Array<[string, Command]> {
  const out: Array<[string, Command]> = [];
  for (const group of program.commands.filter((c) => FOUNDATION_GROUPS.includes(c.name()))) {
    const subs = group.commands.filter((c) => c.name() !== 'help');
    if (subs.length === 0 || group.name() === 'clock') out.push([group.name(), group]);
    for (const sub of subs) out.push([`${group.name()} ${sub.name()}`, sub]);
  }
  return out;
}

describe('cli: help', () => {
  it('help: vtr --help shows examples and exit codes', () => {
    const text = helpOf(buildProgram());
    expect(text).toContain('Examples:');
    expect(text).toMatch(/\$ npx vtr serve/);
    expect(text).toMatch(/Exit codes: 0 ok, 1 operation failed, 2 usage error/);
  });

  it('help: every foundation verb shows examples', () => {
    const all = verbs(buildProgram());
    expect(all.map(([n]) => n)).toEqual(expect.arrayContaining([
      'serve', 'sites list', 'sites create', 'sites show', 'sites update', 'sites delete', 'keys show', 'keys rotate',
      'tokens list', 'tokens create', 'tokens revoke', 'session get', 'session event', 'sessions list', 'sessions create',
      'clock', 'clock advance', 'clock set',
    ]));
    for (const [name, cmd] of all) {
      const text = helpOf(cmd);
      expect(text, name).toMatch(/Examples:\n\s+\$ vtr /);
      expect(text, name).toContain(`vtr ${name}`);
    }
  });
});

describe('cli: README', () => {
  it("help: every command, verb and option of vtr --help is in the README's Commands section", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = readme.slice(readme.indexOf('## Commands'), readme.indexOf('## Configuration'));
    // A group's lines: those starting "vtr <group>", with their indented continuation lines.
    const linesOf = (group: string): string =>
      block.split(/\n(?=\S)/).filter((l) => l.startsWith(`vtr ${group} `) || l === `vtr ${group}`).join('\n');
    const missing: string[] = [];
    for (const group of buildProgram().commands.filter((c) => c.name() !== 'help')) {
      // `vtr exec [serve options]` takes serve's options.
      const text = linesOf(group.name()) + (group.name() === 'exec' ? `\n${linesOf('serve')}` : '');
      if (!text) missing.push(group.name());
      for (const cmd of [group, ...group.commands.filter((c) => c.name() !== 'help')]) {
        const name = cmd === group ? group.name() : `${group.name()} ${cmd.name()}`;
        if (cmd !== group && !new RegExp(`\\b${cmd.name()}\\b`).test(text)) missing.push(name);
        for (const o of cmd.options) {
          if (o.long && o.long !== '--help' && !new RegExp(`${o.long}(?![\\w-])`).test(text)) missing.push(`${name} ${o.long}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('cli: confirmation', () => {
  it('help: --yes says whether a command without a terminal needs it, as each one behaves', () => {
    const yes = new Map<string, string>();
    for (const group of buildProgram().commands) {
      for (const cmd of [group, ...group.commands]) {
        const o = cmd.options.find((x) => x.long === '--yes');
        if (o) yes.set(cmd === group ? group.name() : `${group.name()} ${cmd.name()}`, o.description);
      }
    }
    // Deletes and a reset refuse without a terminal; rotating, revoking and importing go ahead (README).
    for (const name of ['sites delete', 'views delete', 'rules delete', 'webhooks delete', 'state reset']) {
      expect(yes.get(name), name).toMatch(/required without a terminal/);
    }
    for (const name of ['keys rotate', 'tokens revoke', 'state import']) expect(yes.get(name), name).toMatch(/on a terminal$/);
    // Every other command that changes state takes it too (scripts pass it everywhere), and says it never asks.
    const others = [...yes].filter(([name]) => !/^(sites|views|rules|webhooks) delete$|^state (reset|import)$|^keys rotate$|^tokens revoke$/.test(name));
    expect(others.map(([name]) => name).sort()).toEqual(
      ['check', 'clock advance', 'clock set', 'rules create', 'rules update', 'session event', 'sessions create', 'sessions simulate', 'sites create', 'sites update',
        'tokens create', 'views create', 'views update', 'webhooks create', 'webhooks disable', 'webhooks enable', 'webhooks retry', 'webhooks trigger'].sort(),
    );
    for (const [name, description] of others) expect(description, name).toMatch(/^accepted, never needed/);
  });
});

describe('cli: help examples', () => {
  /** Every command under `cmd`, itself included. */
  const all = (cmd: Command): Command[] => [cmd, ...cmd.commands.flatMap(all)];

  it('help: an example line is a command that can be copied: any prose after it is a # comment', () => {
    for (const cmd of all(buildProgram())) {
      for (const line of helpOf(cmd).split('\n').filter((l) => /^\s+\$ /.test(l))) {
        // Two or more spaces then text that is not a comment: prose the shell would take as arguments.
        expect(line, cmd.name()).not.toMatch(/\S {2,}[^#\s]/);
      }
    }
  });

  it('help: serve shows its own --admin-token (what it requires), not only the global client credential', () => {
    const serve = buildProgram().commands.find((c) => c.name() === 'serve')!;
    expect(serve.options.map((o) => o.long)).toContain('--admin-token');
    expect(helpOf(serve)).toMatch(/--admin-token <token> +require this token on non-loopback binds/);
  });
});

describe('cli: exit codes', () => {
  it('exitCodeFor: usage 2, operation 1, threshold 3, commander parse errors 2, help 0', () => {
    expect(exitCodeFor(new UsageError('x'))).toBe(2);
    expect(exitCodeFor(new OperationError('x'))).toBe(1);
    expect(exitCodeFor(new ThresholdReached('x'))).toBe(3);
    expect(exitCodeFor(new ApiError(404, 'not_found', 'x'))).toBe(1);
    expect(exitCodeFor(new ConnectionError('http://127.0.0.1:1'))).toBe(1);
    expect(exitCodeFor(new Error('x'))).toBe(1);
    expect(exitCodeFor(new CommanderError(1, 'commander.unknownOption', 'x'))).toBe(2);
    expect(exitCodeFor(new CommanderError(1, 'commander.missingArgument', 'x'))).toBe(2);
    expect(exitCodeFor(new CommanderError(0, 'commander.helpDisplayed', 'x'))).toBe(0);
  });

  it('asFlagError: a 400 about a field a given flag carried is that flag\'s usage error; others stay', () => {
    const cmd = new Command('create').option('--owner-email <e>').option('--country <c>');
    cmd.setOptionValue('ownerEmail', 'nope');
    const bad = new ApiError(400, 'invalid_request', 'owner_email: must be an email address', { field: 'owner_email' });
    const mapped = asFlagError(bad, cmd);
    expect(mapped).toBeInstanceOf(UsageError);
    expect((mapped as Error).message).toBe('--owner-email: must be an email address');
    // A flag that was not given (the value came from elsewhere), another code, another status: unchanged.
    const notGiven = new ApiError(400, 'invalid_request', 'country: x', { field: 'country' });
    expect(asFlagError(notGiven, cmd)).toBe(notGiven);
    const conflict = new ApiError(409, 'conflict', 'x', { field: 'owner_email' });
    expect(asFlagError(conflict, cmd)).toBe(conflict);
  });

  it('exitCodeFor: a prompt cancelled with Ctrl-C is 130, reported as "cancelled"', () => {
    // What @inquirer/prompts throws on Ctrl-C (its class is not re-exported; the name is its API).
    const err = Object.assign(new Error('User force closed the prompt with SIGINT'), { name: 'ExitPromptError' });
    expect(exitCodeFor(err)).toBe(130);
    let written = '';
    const io = { stdout: process.stdout, stderr: { write: (s: string) => ((written += s), true) }, stdinIsTTY: false } as never;
    expect(reportError({ io, config: { baseUrl: 'http://x/api/v1' } as never }, err)).toBe(130);
    expect(written).toBe('vtr: cancelled\n');
  });

  it('parse: an unknown option or a missing argument is a commander error mapped to 2', async () => {
    for (const argv of [['sessions', 'list', '--bogus'], ['session', 'get'], ['serve', '--clock', 'weird'], ['nope']]) {
      const program = buildProgram();
      let stderr = '';
      const quiet = (c: Command) => {
        c.configureOutput({ writeErr: (s) => (stderr += s), writeOut: () => {} });
        c.commands.forEach(quiet);
      };
      quiet(program);
      const err = await program.parseAsync(['node', 'vtr', ...argv]).then(() => null, (e: unknown) => e);
      expect(err, argv.join(' ')).toBeInstanceOf(CommanderError);
      expect(exitCodeFor(err), argv.join(' ')).toBe(2);
      expect(stderr, argv.join(' ')).toMatch(/^vtr: usage error: /);
    }
  });

  it('reportError: a stopped server says to run npx vtr serve', () => {
    let err = '';
    const io = { stdout: process.stdout, stderr: { write: (s: string) => ((err += s), true) } as never, stdinIsTTY: false };
    const code = reportError({ io, config: resolveConfig({}, {}, io) }, new ConnectionError('http://127.0.0.1:8787'));
    expect(code).toBe(1);
    expect(err).toMatch(/cannot reach the emulator at http:\/\/127\.0\.0\.1:8787/);
    expect(err).toContain('npx vtr serve');
  });

  it('reportError: a server that took the request and never answered is busy, not stopped', () => {
    let err = '';
    const io = { stdout: process.stdout, stderr: { write: (s: string) => ((err += s), true) } as never, stdinIsTTY: false };
    const code = reportError({ io, config: resolveConfig({}, {}, io) }, new ConnectionError('http://127.0.0.1:8787', new AnswerTimeout(120_000)));
    expect(code).toBe(1);
    expect(err).toContain('the emulator at http://127.0.0.1:8787 did not answer within 120 s: it is busy or stuck');
    expect(err).not.toContain('npx vtr serve');
  });

  it('reportError: a not-found id points to its list command; a route that does not exist does not', () => {
    const io = { stdout: process.stdout, stderr: process.stderr, stdinIsTTY: false };
    const cases: Array<[string, string | null]> = [
      ['session not found', 'vtr sessions list --all-sites'],
      ['webhook wh_x not found', 'vtr webhooks list'],
      ['webhook event msg_x not found', 'vtr webhooks events <webhook-id>'],
      ['saved view view_x not found', 'vtr views list'],
      ['rule rule_x not found', 'vtr rules list'],
      ['site site_x not found', 'vtr sites list'],
      ['access token not found', 'vtr tokens list'],
      ['no route for GET /_vtr/api/nope', null],
      ['default site not found', null],
    ];
    for (const [msg, list] of cases) {
      let err = '';
      const errIo = { ...io, stderr: { write: (s: string) => ((err += s), true) } as never };
      reportError({ io: errIo, config: resolveConfig({}, {}, errIo) }, new ApiError(404, 'not_found', msg));
      if (list) expect(err, msg).toContain(`; see \`${list}\``);
      else expect(err, msg).not.toContain('; see');
      // The public API's 404 for another site's session is the same answer: say how to reach it.
      if (msg.startsWith('session ')) expect(err).toContain('(a session of another site needs --site <site-id>)');
    }
  });

  it('reportError: an unknown site names where it came from, --site or VTR_SITE', () => {
    const io = { stdout: process.stdout, stderr: process.stderr, stdinIsTTY: false };
    for (const [globals, env, from] of [[{}, { VTR_SITE: 'site_gone' }, 'VTR_SITE'], [{ site: 'site_gone' }, {}, '--site']] as const) {
      let err = '';
      const errIo = { ...io, stderr: { write: (s: string) => ((err += s), true) } as never };
      reportError({ io: errIo, config: resolveConfig(globals, env, errIo) }, new ApiError(404, 'not_found', 'site site_gone not found'));
      expect(err).toBe(`vtr: error: ${from}: site site_gone not found (HTTP 404, not_found); see \`vtr sites list\`\n`);
    }
    // An id given as an argument is not the --site one.
    let err = '';
    const errIo = { ...io, stderr: { write: (s: string) => ((err += s), true) } as never };
    reportError({ io: errIo, config: resolveConfig({}, { VTR_SITE: 'site_gone' }, errIo) }, new ApiError(404, 'not_found', 'site site_other not found'));
    expect(err).toBe('vtr: error: site site_other not found (HTTP 404, not_found); see `vtr sites list`\n');
  });

  it('reportError: a 401 names the credential to check once: the admin token, or the public API keys', () => {
    const io = { stdout: process.stdout, stderr: process.stderr, stdinIsTTY: false };
    const cases: Array<[string, string]> = [
      [
        'this emulator needs its admin token: Authorization: Bearer <admin token> (or --admin-token / VTR_ADMIN_TOKEN)',
        'vtr: error: this emulator needs its admin token: Authorization: Bearer <admin token> (or --admin-token / VTR_ADMIN_TOKEN) (HTTP 401, unauthorized)\n',
      ],
      [
        "the admin token given is not this emulator's (the one `vtr serve --admin-token` was started with)",
        "vtr: error: the admin token given is not this emulator's (the one `vtr serve --admin-token` was started with) (HTTP 401, unauthorized). Check --admin-token (or VTR_ADMIN_TOKEN).\n",
      ],
      [
        'the secret key is unknown (rotated?); see `vtr keys show`',
        'vtr: error: the secret key is unknown (rotated?); see `vtr keys show` (HTTP 401, unauthorized). Check --token / --secret-key (or VTR_ACCESS_TOKEN / VTR_SECRET_KEY).\n',
      ],
    ];
    for (const [msg, want] of cases) {
      let err = '';
      const errIo = { ...io, stderr: { write: (s: string) => ((err += s), true) } as never };
      expect(reportError({ io: errIo, config: resolveConfig({}, {}, errIo) }, new ApiError(401, 'unauthorized', msg))).toBe(1);
      expect(err).toBe(want);
    }
  });

  it('reportError: a remote host that cannot be reached names the cause and --base-url, not npx vtr serve', () => {
    let err = '';
    const io = { stdout: process.stdout, stderr: { write: (s: string) => ((err += s), true) } as never, stdinIsTTY: false };
    const cause = Object.assign(new Error('getaddrinfo ENOTFOUND vtr.invalid'), { code: 'ENOTFOUND' });
    const config = resolveConfig({ baseUrl: 'http://vtr.invalid:8787/api/v1' }, {}, io);
    expect(reportError({ io, config }, new ConnectionError('http://vtr.invalid:8787', cause))).toBe(1);
    expect(err).toMatch(/cannot reach http:\/\/vtr\.invalid:8787: getaddrinfo ENOTFOUND vtr\.invalid/);
    expect(err).toContain('--base-url / VTR_BASE_URL');
    expect(err).not.toContain('npx vtr serve');
  });
});

describe('cli: configuration', () => {
  const io = { stdout: { isTTY: true } as never, stderr: process.stderr, stdinIsTTY: false };

  it('resolveConfig: flag beats environment beats default', () => {
    const env = { VTR_BASE_URL: 'http://127.0.0.1:9999/api/v1', VTR_ACCESS_TOKEN: 'env-token', VTR_SECRET_KEY: 'env-sk', VTR_ADMIN_TOKEN: 'env-admin' };
    expect(resolveConfig({}, {}, io)).toMatchObject({ baseUrl: DEFAULT_BASE_URL, accessToken: null, secretKey: null, adminToken: null });
    expect(resolveConfig({}, env, io)).toMatchObject({ baseUrl: env.VTR_BASE_URL, accessToken: 'env-token', secretKey: 'env-sk', adminToken: 'env-admin' });
    expect(resolveConfig({ baseUrl: 'http://localhost:1/api/v1', token: 'flag-token', secretKey: 'flag-sk', adminToken: 'flag-admin' }, env, io))
      .toMatchObject({ baseUrl: 'http://localhost:1/api/v1', accessToken: 'flag-token', secretKey: 'flag-sk', adminToken: 'flag-admin' });
  });

  it('resolveConfig: a flag beats the environment; --site beats the environment\'s keys, not the key flags', () => {
    const env = { VTR_SECRET_KEY: 'sk_test_env', VTR_ACCESS_TOKEN: 'at_test_env', VTR_SITE: 'site_env' };
    expect(resolveConfig({}, env, io)).toMatchObject({ secretKey: 'sk_test_env', accessToken: 'at_test_env', site: 'site_env', siteFrom: 'VTR_SITE' });
    expect(resolveConfig({ site: 'site_other' }, env, io)).toMatchObject({ secretKey: null, accessToken: null, site: 'site_other', siteFrom: '--site' });
    expect(resolveConfig({ site: 'site_other', secretKey: 'sk_test_flag' }, env, io)).toMatchObject({ secretKey: 'sk_test_flag', accessToken: null });
  });

  it("resolveConfig: --secret-key beats the environment's token (the session API takes the key as its bearer); --token still beats both", () => {
    const env = { VTR_SECRET_KEY: 'sk_test_env', VTR_ACCESS_TOKEN: 'at_test_env' };
    expect(resolveConfig({ secretKey: 'sk_test_flag' }, env, io)).toMatchObject({ secretKey: 'sk_test_flag', accessToken: null });
    expect(resolveConfig({ secretKey: 'sk_test_flag', token: 'at_test_flag' }, env, io)).toMatchObject({ secretKey: 'sk_test_flag', accessToken: 'at_test_flag' });
    // A token flag leaves the environment's secret key for `vtr check`: a token never stands in for it.
    expect(resolveConfig({ token: 'at_test_flag' }, env, io)).toMatchObject({ secretKey: 'sk_test_env', accessToken: 'at_test_flag' });
  });

  it('resolveConfig: colour only on a TTY without NO_COLOR or --no-color', () => {
    expect(resolveConfig({}, {}, io).color).toBe(true);
    expect(resolveConfig({}, { NO_COLOR: '1' }, io).color).toBe(false);
    expect(resolveConfig({}, { NO_COLOR: '' }, io).color).toBe(true); // no-color.org: an empty value does not count
    expect(resolveConfig({ color: false }, {}, io).color).toBe(false);
    expect(resolveConfig({}, {}, { ...io, stdout: { isTTY: false } as never }).color).toBe(false);
  });

  const serveDefaults: ServeOptions = { port: '0', host: '127.0.0.1', db: '.vtr/vtr.db', clock: 'system', retryBase: '2s', webhookTimeout: '10s', log: 'pretty' };

  it('parseServeOptions: a non-loopback host needs an admin token, and says why', () => {
    expect(() => parseServeOptions({ ...serveDefaults, host: '0.0.0.0' }, {})).toThrow(UsageError);
    expect(() => parseServeOptions({ ...serveDefaults, host: '0.0.0.0' }, {})).toThrow(/--admin-token/);
    expect(parseServeOptions({ ...serveDefaults, host: '0.0.0.0', adminToken: 't' }, {}).adminToken).toBe('t');
    expect(parseServeOptions({ ...serveDefaults, host: '0.0.0.0' }, { VTR_ADMIN_TOKEN: 'e' }).adminToken).toBe('e');
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) expect(parseServeOptions({ ...serveDefaults, host }, {}).host).toBe(host);
  });

  it('parseServeOptions: an empty --host (an unset variable) is a usage error naming the flag', () => {
    for (const host of ['', ' ']) expect(() => parseServeOptions({ ...serveDefaults, host }, { VTR_ADMIN_TOKEN: 't' })).toThrow(/^--host: give an address to listen on/);
  });

  it('parseServeOptions: bad values are usage errors naming the flag', () => {
    const bad: Array<[Partial<ServeOptions>, string]> = [
      [{ port: 'http' }, '--port'], [{ port: '70000' }, '--port'], [{ retryBase: 'soon' }, '--retry-base'],
      [{ retrySchedule: '1s,2s' }, '--retry-schedule'], [{ rateLimit: '0' }, '--rate-limit'], [{ smtp: 'http://x' }, '--smtp'],
      [{ webhookTimeout: 'x' }, '--webhook-timeout'], [{ webhookTimeout: '0' }, '--webhook-timeout'], [{ retryBase: '0s' }, '--retry-base'],
      [{ db: '' }, '--db'], [{ exportOnExit: '/nonexistent-dir/state.json' }, '--export-on-exit'], [{ exportOnExit: '' }, '--export-on-exit'],
    ];
    for (const [o, flag] of bad) expect(() => parseServeOptions({ ...serveDefaults, ...o }, {}), flag).toThrow(flag);
    expect(parseServeOptions({ ...serveDefaults, memory: true }, {}).dbPath).toBe(':memory:');
    expect(parseServeOptions({ ...serveDefaults, retrySchedule: '5s,5m,30m,2h,5h' }, {}).retrySchedule).toEqual([5000, 300000, 1800000, 7200000, 18000000]);
  });

  it('parseServeOptions: --port takes digits only (an empty value, as from an unset $PORT, is refused, not a free port)', () => {
    for (const port of ['', ' ', '0x50', ' 80', '1e3', '80.0', '+80']) {
      expect(() => parseServeOptions({ ...serveDefaults, port }, {}), JSON.stringify(port)).toThrow(/--port: ".*" is not a port number \(0-65535; 0 for a free port\)/);
    }
    for (const port of ['0', '80', '08080', '65535']) expect(parseServeOptions({ ...serveDefaults, port }, {}).port).toBe(Number(port));
  });

  it('parseServeOptions: --export-on-exit onto the database itself is refused (it would replace the state with its export)', () => {
    for (const exportOnExit of ['.vtr/vtr.db', './.vtr/../.vtr/vtr.db', '.vtr/vtr.db-wal', `${process.cwd()}/.vtr/vtr.db`]) {
      expect(() => parseServeOptions({ ...serveDefaults, exportOnExit }, {}), exportOnExit).toThrow(/--export-on-exit: .* is the database \(--db \.vtr\/vtr\.db\); give another file/);
    }
    expect(parseServeOptions({ ...serveDefaults, exportOnExit: 'vtr.db' }, {}).exportOnExit).toBe('vtr.db');
    expect(parseServeOptions({ ...serveDefaults, db: 'x.db', memory: true, exportOnExit: 'x.db' }, {}).exportOnExit).toBe('x.db');
  });

  it('parseServeOptions: a --webhook-timeout over 24h is refused (a longer timer would time every attempt out at once)', () => {
    expect(() => parseServeOptions({ ...serveDefaults, webhookTimeout: '30d' }, {})).toThrow(/--webhook-timeout: "30d" is too long; give at most 24h/);
    expect(parseServeOptions({ ...serveDefaults, webhookTimeout: '24h' }, {}).webhookTimeoutMs).toBe(86_400_000);
  });

  it('siteBody: flags become the API body; bad ones are usage errors naming the flag', () => {
    expect(siteBody({ name: 'Shop', plan: 'free', country: 'gb', conversionEvents: 'a, b,,c', bounceSeconds: '5', excludedCountries: 'ru,cn', ipAllowlist: '10.0.0.0/8' }))
      .toEqual({ name: 'Shop', plan: 'free', country: 'GB', conversion_events: ['a', 'b', 'c'], bounce_seconds: 5, excluded_countries: ['RU', 'CN'], ip_allowlist: ['10.0.0.0/8'] });
    expect(siteBody({})).toEqual({});
    expect(() => siteBody({ plan: 'gold' })).toThrow('--plan');
    expect(() => siteBody({ bounceSeconds: 'ten' })).toThrow('--bounce-seconds');
  });
});
