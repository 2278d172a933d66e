// CLI conventions on the built binary: --json, stderr, exit codes, usage errors, colour, credentials, help.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { startServer } from '../helpers/vtr-process.js';
import { HAS_PTY, parseOne, suiteServer, vtr, vtrJson, vtrOnTty } from '../helpers/foundation-e2e.js';

const ANSI = /\u001b\[/;
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const suite = suiteServer();

describe('cli conventions (built binary)', { timeout: 120_000 }, () => {
  it('--json: each foundation command prints exactly one JSON document on stdout', async () => {
    const cases: Array<[string[], (v: any) => void]> = [
      [['sites', 'list'], (v) => expect(Array.isArray(v)).toBe(true)],
      [['sites', 'show', suite.server.site!.site_id], (v) => expect(v.site_id).toBe(suite.server.site!.site_id)],
      [['keys', 'show'], (v) => expect(v.secret_key).toBe(suite.server.site!.secret_key)],
      [['tokens', 'list'], (v) => expect(v.map((t: { token: string }) => t.token)).toContain(suite.server.site!.access_token)],
      [['session', 'get', suite.sessionId], (v) => expect(v.session_id).toBe(suite.sessionId)],
      [['sessions', 'list', '--limit', '5'], (v) => expect(v[0].session_id).toBe(suite.sessionId)],
      [['clock'], (v) => expect(v).toMatchObject({ mode: 'system', offset_ms: 0 })],
    ];
    for (const [args, check] of cases) {
      const r = await vtr([...args, '--json'], suite.server.env);
      expect(r.code, args.join(' ')).toBe(0);
      check(parseOne(r.stdout));
    }
  });

  it('sessions create --user-agent "": a session without a user agent (null), as the API makes from ""', async () => {
    const r = await vtr(['sessions', 'create', '--user-agent', '', '--json'], suite.server.env);
    expect(r.code).toBe(0);
    expect(parseOne(r.stdout)).toMatchObject({ user_agent: null, browser_name: null, device_type: null });
  });

  it('--json: hints go to stderr, never stdout', async () => {
    const r = await vtr(['sites', 'create', '--name', 'Hinted', '--json'], suite.server.env);
    expect(r.code).toBe(0);
    expect(parseOne(r.stdout).name).toBe('Hinted');
    expect(r.stderr).toMatch(/Use it with --site site_/);
    const quiet = await vtr(['sites', 'create', '--name', 'Quiet', '--json', '--quiet'], suite.server.env);
    expect(quiet.stderr).toBe('');
  });

  it('check: nothing to check still answers (the API allows it) but says so on stderr', async () => {
    const r = await vtr(['check', '--json'], suite.server.env);
    expect(r.code).toBe(0);
    expect(parseOne(r.stdout)).toMatchObject({ ip: null, email: null, phone: null, address: null, device: null });
    expect(r.stderr).toMatch(/Nothing was given to check/);
  });

  it('errors: an API error goes to stderr with exit 1 and nothing on stdout', async () => {
    const r = await vtr(['session', 'get', 'ses_doesnotexist', '--json'], suite.server.env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^vtr: error: .*404.*not_found/m);
    // A mistyped webhook id ends `webhooks tail` at once instead of tailing nothing forever.
    const tail = await vtr(['webhooks', 'tail', '--webhook', 'wh_nope'], suite.server.env);
    expect(tail.code).toBe(1);
    expect(tail.stderr).toMatch(/not found.*404/);
    const clock = await vtr(['clock', 'advance', '5m'], suite.server.env);
    expect(clock.code).toBe(1);
    expect(clock.stderr).toMatch(/manual/);
  });

  it('usage: a bad --limit, an unknown option or a missing argument exits 2 naming it', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['sessions', 'list', '--limit', 'abc'], /--limit/],
      [['sessions', 'list', '--bogus'], /--bogus/],
      [['session', 'get'], /missing required argument 'id'/],
      [['session', 'event', suite.sessionId], /missing required argument 'name'/],
      [['sessions', 'create', '--page-views', 'lots'], /--page-views/],
      [['sessions', 'create', '--ip', 'hello world'], /--ip: "hello world" is not an IPv4 or IPv6 address/],
      [['webhooks', 'create', '--url', 'notaurl'], /--url: "notaurl" must be an absolute http/],
      [['webhooks', 'create', '--url', 'ftp://example.com/'], /--url: .* must use http or https, not ftp/],
      [['sessions', 'create', '--url', 'shop.test/?gclid=abc'], /--url: "shop.test\/\?gclid=abc" must be an absolute http\(s\) URL/],
      [['sessions', 'create', '--referrer', 'notaurl'], /--referrer: "notaurl" must be an absolute/],
      [['sessions', 'create', '--event', ''], /--event: must not be empty: a custom event needs a name/],
      [['webhooks', 'receive', '--port', '0', '--secret', 'notasecret'], /--secret: not a webhook secret/],
      // Checked by the server, reported against the flag that carried the value.
      [['sites', 'create', '--name', 'x', '--country', 'Germany'], /--country: must be a two-letter ISO 3166-1 country code/],
      [['views', 'create', '--name', '', '--filter', 'page_views >= 1'], /--name: must not be empty/],
      [['views', 'create', '--name', '  ', '--filter', 'page_views >= 1'], /--name: must not be empty or blank/],
      [['sites', 'create', '--name', '  '], /--name: must not be empty or blank/],
      [['rules', 'create', '--name', '  ', '--filter', 'risk_level = invalid', '--action', 'block'], /--name: must not be empty or blank/],
      [['sites', 'create', '--plan', 'gold'], /--plan/],
      [['clock', 'advance', 'soon'], /duration/],
      [['serve', '--port', 'http'], /--port/],
      [['nosuchcommand'], /unknown command/],
    ];
    for (const [args, re] of cases) {
      const r = await vtr(args, suite.server.env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(re);
      expect(r.stderr, args.join(' ')).toMatch(/usage error/);
    }
  });

  it('usage: an argument a command does not take exits 2 naming it, --version included', async () => {
    const cases: Array<[string[], string]> = [
      [['--version', 'extra'], "unexpected argument 'extra': `vtr --version` takes none"],
      [['extra', '-v'], "unexpected argument 'extra': `vtr --version` takes none"],
      [['--json', '--version', 'extra'], "unexpected argument 'extra': `vtr --version` takes none"],
      [['sites', 'list', 'extra'], "unexpected argument 'extra': `vtr sites list` takes none (see `vtr sites list --help`)"],
      [['health', 'a', 'b'], "unexpected argument 'a': `vtr health` takes none (see `vtr health --help`)"],
      [['clock', 'show'], "unknown command 'show' for `vtr clock` (its commands: advance, set; or none) (see `vtr clock --help`)"],
      [['sites', 'show', 'default', 'extra'], "unexpected argument 'extra': `vtr sites show` takes 1 (<id>) (see `vtr sites show --help`)"],
    ];
    for (const [args, said] of cases) {
      const r = await vtr(args, suite.server.env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toBe(`vtr: usage error: ${said}\n`);
    }
    // A command that takes any number of arguments still takes them all.
    const exec = await vtr(['exec', '--', process.execPath, '-e', 'process.exit(process.argv.slice(1).join() === "a,b" ? 0 : 9)', 'a', 'b'], suite.server.env);
    expect(exec.code).toBe(0);
  });

  it('usage: sessions get / session list name the group that has the verb', async () => {
    for (const [args, hint] of [
      [['sessions', 'get', suite.sessionId], 'use `vtr session get`'],
      [['sessions', 'event', suite.sessionId, 'signup'], 'use `vtr session event`'],
      [['session', 'list'], 'use `vtr sessions list`'],
    ] as const) {
      const r = await vtr([...args], suite.server.env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr, args.join(' ')).toContain(hint);
    }
    // A verb neither group has keeps commander's suggestion.
    expect((await vtr(['sessions', 'lst'], suite.server.env)).stderr).toMatch(/Did you mean list\?/);
  });

  it('credentials: an empty VTR_BASE_URL counts as unset; a bad one is named as VTR_BASE_URL, not --base-url', async () => {
    const empty = await vtr(['health', '--json'], { VTR_BASE_URL: '' });
    expect(empty.stderr).not.toMatch(/is not a URL/);
    expect(empty.stderr).toMatch(/127\.0\.0\.1:8787/);
    const bad = await vtr(['health'], { VTR_BASE_URL: 'not a url' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('vtr: usage error: VTR_BASE_URL: "not a url" is not a URL; use e.g. http://127.0.0.1:8787/api/v1\n');
  });

  it('sessions list --all-sites: each row names its site; with --site too it is a usage error', async () => {
    const other = await vtrJson(['sites', 'create', '--name', 'Other shop'], suite.server.env);
    const made = await vtrJson(['sessions', 'create', '--site', other.site_id], suite.server.env);
    const all = await vtr(['sessions', 'list', '--all-sites', '--limit', '50'], suite.server.env);
    expect(all.code).toBe(0);
    expect(all.stdout.split('\n')[0]).toMatch(/^SESSION +SITE +CREATED/);
    expect(all.stdout).toMatch(new RegExp(`^${made.session_id} +${other.site_id} `, 'm'));
    // One site's list keeps its columns.
    expect((await vtr(['sessions', 'list', '--site', other.site_id], suite.server.env)).stdout).toMatch(/^SESSION +CREATED/);
    const both = await vtr(['sessions', 'list', '--all-sites', '--site', other.site_id], suite.server.env);
    expect(both.code).toBe(2);
    expect(both.stdout).toBe('');
    expect(both.stderr).toMatch(/--all-sites .*--site.*only one/);
  });

  it('usage: a non-TTY delete without --yes is a usage error, not a prompt', async () => {
    const site = await vtrJson(['sites', 'create', '--name', 'Doomed'], suite.server.env);
    const r = await vtr(['sites', 'delete', site.site_id], suite.server.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
    expect(await vtrJson(['sites', 'delete', site.site_id, '--yes'], suite.server.env)).toEqual({ deleted: true, site_id: site.site_id });
  });

  it('--yes: every state-changing command that never asks accepts it, and its help says it is never needed', async () => {
    const env = suite.server.env;
    const hook = await vtrJson(['webhooks', 'create', '--url', 'http://127.0.0.1:9/', '--yes'], env);
    const view = await vtrJson(['views', 'create', '--name', 'Yes', '--filter', 'risk_level = invalid', '--yes'], env);
    const rule = await vtrJson(['rules', 'create', '--name', 'Yes', '--filter', 'risks contains vpn', '--action', 'review', '--yes'], env);
    const runs = [
      ['webhooks', 'disable', hook.webhook_id],
      ['webhooks', 'enable', hook.webhook_id],
      ['webhooks', 'trigger', hook.webhook_id, '--session', suite.sessionId],
      ['webhooks', 'retry', '--all-failed', '--webhook', hook.webhook_id],
      ['views', 'update', view.saved_view_id, '--name', 'Yes 2'],
      ['rules', 'update', rule.rule_id, '--name', 'Yes 2'],
      ['sites', 'update', suite.server.site!.site_id, '--owner-email', 'yes@example.com'],
      ['sites', 'create', '--name', 'Yes'],
      ['tokens', 'create'],
      ['session', 'event', suite.sessionId, 'signup'],
      ['sessions', 'create'],
      ['sessions', 'simulate', '--count', '2', '--seed', 'yes'],
      ['check', '--ip', '192.0.2.10'],
    ];
    for (const args of runs) {
      const r = await vtr([...args, '--yes'], env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    for (const args of [...runs.map((a) => a.slice(0, a[0] === 'check' ? 1 : 2)), ['webhooks', 'create'], ['views', 'create'], ['rules', 'create'], ['clock', 'advance'], ['clock', 'set']]) {
      const help = await vtr([...args, '--help'], env);
      expect(help.stdout, args.join(' ')).toMatch(/-y, --yes\s+accepted, never needed/);
    }
  });

  it('webhooks create: the hint points at the secret where it was printed, in text and with --json', async () => {
    const text = await vtr(['webhooks', 'create', '--url', 'https://example.com/hooks'], suite.server.env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/whsec_/);
    expect(text.stderr).toMatch(/signed with the secret above/);
    const json = await vtr(['webhooks', 'create', '--url', 'https://example.com/hooks', '--json'], suite.server.env);
    expect(json.code, json.stderr).toBe(0);
    expect(parseOne(json.stdout).secret).toMatch(/^whsec_/);
    expect(json.stderr).not.toMatch(/above/);
    expect(json.stderr).toMatch(/signed with its secret \("secret" in the JSON on stdout\)/);
  });

  it('unreachable: a stopped server is exit 1 with a message to run npx vtr serve', async () => {
    const stopped = await startServer(['--memory']);
    const env = stopped.env;
    expect(await stopped.stop()).toBe(0);
    for (const args of [['sessions', 'list'], ['session', 'get', 'ses_x'], ['sites', 'list', '--json']]) {
      const r = await vtr(args, env);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('cannot reach the emulator');
      // The server was on a port of its own: the hint starts one there.
      expect(r.stderr).toContain(`npx vtr serve --port ${new URL(env.VTR_BASE_URL!).port}`);
    }
  });

  it('colour: NO_COLOR and --no-color output has no ANSI escapes', async () => {
    for (const [args, env] of [
      [['session', 'get', suite.sessionId], { NO_COLOR: '1' }],
      [['session', 'get', suite.sessionId, '--no-color'], {}],
      [['sessions', 'list', '--no-color'], { FORCE_COLOR: '1' }],
      [['session', 'get', 'ses_nope'], { NO_COLOR: '1' }],
    ] as const) {
      const r = await vtr([...args], { ...suite.server.env, ...env });
      expect(r.stdout + r.stderr, args.join(' ')).not.toMatch(ANSI);
      if (args[2] !== 'ses_nope') expect(r.stdout).toMatch(/suspicious/);
    }
  });

  it.skipIf(!HAS_PTY)('colour: on a terminal there is colour, unless NO_COLOR or --no-color', async () => {
    const coloured = await vtrOnTty(['session', 'get', suite.sessionId], suite.server.env);
    expect(coloured.code).toBe(0);
    expect(coloured.output).toContain(suite.sessionId);
    expect(coloured.output).toMatch(ANSI);
    for (const [args, env] of [[['session', 'get', suite.sessionId], { NO_COLOR: '1' }], [['session', 'get', suite.sessionId, '--no-color'], {}]] as const) {
      const r = await vtrOnTty([...args], { ...suite.server.env, ...env });
      expect(r.code).toBe(0);
      expect(r.output).toMatch(/suspicious/);
      expect(r.output, JSON.stringify(env)).not.toMatch(ANSI);
    }
  });

  it.skipIf(!HAS_PTY)('prompt: a missing argument asked for on a terminal shows what kind of value it is, from the command\'s example', async () => {
    for (const [args, asked] of [
      [['sites', 'delete'], 'id (e.g. site_123)'],
      [['session', 'get'], 'id (e.g. ses_123)'],
      [['tokens', 'revoke'], 'token (e.g. at_test_123)'],
    ] as const) {
      // An answer typed, then the end of input: the next prompt (a confirmation) is cancelled.
      const r = await vtrOnTty([...args], suite.server.env, 'x_nope\r');
      expect(r.output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''), args.join(' ')).toContain(`? ${asked}`);
    }
  });

  it('credentials: flag beats environment beats the default site', async () => {
    const ok = await vtr(['session', 'get', suite.sessionId, '--json'], suite.server.env);
    expect(ok.code).toBe(0);
    const flagBogus = await vtr(['session', 'get', suite.sessionId, '--token', 'bogus'], suite.server.env);
    expect(flagBogus.code).toBe(1);
    expect(flagBogus.stderr).toMatch(/401/);
    const envBogus = await vtr(['session', 'get', suite.sessionId], { ...suite.server.env, VTR_ACCESS_TOKEN: 'bogus' });
    expect(envBogus.code).toBe(1);
    expect(envBogus.stderr).toMatch(/401/);
    const flagOverEnv = await vtr(['session', 'get', suite.sessionId, '--json', '--token', suite.server.site!.access_token], { ...suite.server.env, VTR_ACCESS_TOKEN: 'bogus' });
    expect(flagOverEnv.code).toBe(0);
    expect(parseOne(flagOverEnv.stdout).session_id).toBe(suite.sessionId);
    // --base-url beats VTR_BASE_URL
    const badEnvUrl = await vtr(['session', 'get', suite.sessionId, '--json', '--base-url', suite.server.baseUrl], { VTR_BASE_URL: 'http://127.0.0.1:1/api/v1' });
    expect(badEnvUrl.code).toBe(0);
    const badUrl = await vtr(['sites', 'list', '--base-url', 'not a url']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/--base-url/);
  });

  it('credentials: a key or token with a line ending or spaces around it (a CRLF file, a paste) is used without them; inside or alone they are a usage error', async () => {
    const env = suite.server.env;
    const key = (await vtrJson(['keys', 'show'], env)).secret_key as string;
    const token = (await vtrJson(['tokens', 'create'], env)).token as string;
    for (const [args, extra] of [
      [['check', '--ip', '192.0.2.1', '--secret-key', `${key}\r\n`], {}],
      [['check', '--ip', '192.0.2.1'], { VTR_SECRET_KEY: ` ${key}\r` }],
      [['session', 'get', suite.sessionId, '--token', `${token}\r`], {}],
      [['session', 'get', suite.sessionId], { VTR_ACCESS_TOKEN: `${token}\n` }],
    ] as const) {
      const r = await vtr([...args, '--json'], { ...env, ...extra });
      expect(r.code, `${args.join(' ')} ${JSON.stringify(extra)}: ${r.stderr}`).toBe(0);
    }
    const blank = await vtr(['check', '--ip', '192.0.2.1', '--secret-key', ' \r\n'], env);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toBe('vtr: usage error: --secret-key: must not be empty or blank (a shell variable left unset?)\n');
    const inside = await vtr(['session', 'get', suite.sessionId, '--token', 'at_test_a\r\nb'], env);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toBe('vtr: usage error: --token (or VTR_ACCESS_TOKEN): "at_test_a\\r\\nb" has white space inside it, which no key or token has\n');
  });

  it('version: vtr --version prints the package version alone, after a command too (its help lists --version among the global options)', async () => {
    for (const args of [['--version'], ['-v'], ['check', '--version'], ['sessions', 'list', '-v'], ['check', '--ip', '192.0.2.1', '--version']]) {
      const r = await vtr(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toBe(`${VERSION}\n`);
      expect(r.stderr).toBe('');
    }
  });

  it('version: vtr --version --json prints {"version": ...} on stdout, in either order, with other global flags too', async () => {
    for (const args of [['--json', '--version'], ['--version', '--json'], ['-v', '--json'], ['--json', '--quiet', '-v'], ['--base-url', 'http://127.0.0.1:1/api/v1', '--json', '--version']]) {
      const r = await vtr(args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(parseOne(r.stdout), args.join(' ')).toEqual({ version: VERSION });
      expect(r.stderr).toBe('');
    }
  });

  it('help: vtr --help and vtr <group> <verb> --help show examples with exit 0', async () => {
    const root = await vtr(['--help']);
    expect(root.code).toBe(0);
    expect(root.stdout).toMatch(/Examples:/);
    expect(root.stdout).toMatch(/Exit codes/);
    for (const args of [['sessions', 'list'], ['session', 'event'], ['sites', 'create'], ['tokens', 'revoke'], ['serve'], ['keys', 'rotate']]) {
      const r = await vtr([...args, '--help']);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toMatch(new RegExp(`Usage: vtr ${args.join(' ')}`));
      expect(r.stdout, args.join(' ')).toMatch(/Examples:\n\s+\$ vtr /);
    }
  });
});
