// The CLI at its edges, on the built binary: prompts with --json, unreachable servers for the
// tails, empty ids, temp files of a failed export, --site checks, custom event names, the clock.
import { describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startServer } from '../helpers/vtr-process.js';
import { HAS_PTY, parseOne, scratchDir, suiteServer, vtr, vtrJson } from '../helpers/foundation-e2e.js';
import { freePort as closedPort } from '../helpers/cli-process.js';
import { onTty } from '../helpers/tty.js';

const suite = suiteServer();

describe('cli edges (built binary)', { timeout: 120_000 }, () => {
  describe('prompts: --json governs stdout only', () => {
    it.skipIf(!HAS_PTY)('keys rotate --json on a TTY: asks first; "no" changes nothing and prints nothing on stdout', async () => {
      const before = await vtrJson(['keys', 'show'], suite.server.env);
      const r = await onTty(['keys', 'rotate', '--json'], suite.server.env, [['Rotate the keys', 'n']]);
      expect(r.answered, r.tty).toBe(1);
      expect(r.code, r.tty).toBe(1);
      expect(r.tty).toContain('keys not rotated');
      expect(r.stdout).toBe('');
      expect((await vtrJson(['keys', 'show'], suite.server.env)).secret_key).toBe(before.secret_key);
    });

    it.skipIf(!HAS_PTY)('tokens revoke --json on a TTY: asks, and on "yes" stdout is the JSON document alone', async () => {
      const token = await vtrJson(['tokens', 'create'], suite.server.env);
      const r = await onTty(['tokens', 'revoke', token.token, '--json'], suite.server.env, [['Revoke', 'y']]);
      expect(r.answered, r.tty).toBe(1);
      expect(r.code, r.tty).toBe(0);
      expect(parseOne(r.stdout)).toMatchObject({ token: token.token });
    });

    it.skipIf(!HAS_PTY)('state import --json on a TTY: asks before replacing everything', async () => {
      const file = join(scratchDir(), 'state.json');
      expect((await vtr(['state', 'export', file], suite.server.env)).code).toBe(0);
      const r = await onTty(['state', 'import', file, '--json'], suite.server.env, [['Replace all state', 'n']]);
      expect(r.answered, r.tty).toBe(1);
      expect(r.code, r.tty).toBe(1);
      expect(r.stdout).toBe('');
    });

    it.skipIf(!HAS_PTY)('state export on a TTY: asks before overwriting a file; "no" leaves it, --yes and a script overwrite', async () => {
      const file = join(scratchDir(), 'kept.json');
      writeFileSync(file, 'my fixture\n');
      const r = await onTty(['state', 'export', file], suite.server.env, [['Overwrite', 'n']]);
      expect(r.answered, r.tty).toBe(1);
      expect(r.code, r.tty).toBe(1);
      expect(r.tty).toContain('is as it was');
      expect(readFileSync(file, 'utf8')).toBe('my fixture\n');
      const yes = await onTty(['state', 'export', file, '--yes'], suite.server.env);
      expect(yes.code, yes.tty).toBe(0);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveProperty('tables');
      writeFileSync(file, 'my fixture\n');
      expect((await vtr(['state', 'export', file], suite.server.env)).code).toBe(0);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveProperty('tables');
    });

    it.skipIf(!HAS_PTY)('sites delete --json on a TTY: asks (there is a terminal to ask on)', async () => {
      const site = await vtrJson(['sites', 'create', '--name', 'Doomed'], suite.server.env);
      const r = await onTty(['sites', 'delete', site.site_id, '--json'], suite.server.env, [['Delete site', 'n']]);
      expect(r.answered, r.tty).toBe(1);
      expect(r.tty).not.toContain('no terminal');
      expect(r.code, r.tty).toBe(1);
      expect(r.stdout).toBe('');
    });

    it.skipIf(!HAS_PTY)('views create --json on a TTY: missing --name and --filter are asked for; stdout stays JSON', async () => {
      const r = await onTty(['views', 'create', '--json'], suite.server.env, [['--name', 'Asked'], ['--filter', 'risk_level = invalid']]);
      expect(r.answered, r.tty).toBe(2);
      expect(r.code, r.tty).toBe(0);
      expect(parseOne(r.stdout)).toMatchObject({ name: 'Asked', filter: 'risk_level = invalid' });
    });

    it('without a TTY --json changes nothing: a missing flag is still a usage error naming it', async () => {
      const r = await vtr(['views', 'create', '--json'], suite.server.env);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/--name/);
    });
  });

  describe('tails: a server that was never reached', () => {
    for (const group of ['webhooks', 'logs']) {
      it(`${group} tail: the first connection failure exits 1 with the unreachable-server hint`, async () => {
        const port = await closedPort();
        const r = await vtr([group, 'tail'], { VTR_BASE_URL: `http://127.0.0.1:${port}/api/v1` }, { timeoutMs: 10_000 });
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toContain(`cannot reach the emulator at http://127.0.0.1:${port}`);
        expect(r.stderr).toContain(`npx vtr serve --port ${port}`);
        expect(r.stderr).not.toMatch(/lost the emulator|reconnecting/);
      });
    }

    it('a remote base URL whose host does not resolve: names the cause and --base-url, not `vtr serve`', async () => {
      const r = await vtr(['sessions', 'list'], { VTR_BASE_URL: 'http://vtr-host.invalid:8787/api/v1', VTR_ACCESS_TOKEN: 'at_x' });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/cannot reach http:\/\/vtr-host\.invalid:8787: .*(ENOTFOUND|EAI_AGAIN)/);
      expect(r.stderr).toContain('--base-url / VTR_BASE_URL');
      expect(r.stderr).not.toContain('vtr serve');
    });
  });

  describe('empty arguments', () => {
    it('an empty id (or other argument) is a usage error naming it, before any request', async () => {
      const cases: Array<[string[], string]> = [
        [['session', 'get', ''], '<id>'],
        [['session', 'event', '', 'conversion'], '<id>'],
        [['sites', 'show', ''], '<id>'],
        [['sites', 'update', '', '--plan', 'free'], '<id>'],
        [['sites', 'delete', '', '--yes'], '<id>'],
        [['tokens', 'revoke', ''], '<token>'],
        [['views', 'delete', '', '--yes'], '<id>'],
        [['webhooks', 'events', ''], '<webhook-id>'],
        [['webhooks', 'event', ''], '<event-id>'],
        [['webhooks', 'disable', ''], '<id>'],
        [['webhooks', 'retry', ''], '<event-id>'],
        [['clock', 'advance', ''], '<duration>'],
        [['state', 'import', ''], '<file>'],
      ];
      for (const [args, name] of cases) {
        const r = await vtr(args, suite.server.env);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr, args.join(' ')).toContain(`vtr: usage error: ${name}: must not be empty`);
      }
    });

    it('sessions list --where "": a usage error naming --where, not every session', async () => {
      for (const where of ['', '  ']) {
        const r = await vtr(['sessions', 'list', '--where', where], suite.server.env);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain('vtr: usage error: --where: empty filter');
      }
    });
  });

  describe('state export', () => {
    it('a failed write (the target is a directory) leaves no temp file behind', async () => {
      const dir = scratchDir();
      const target = join(dir, 'taken');
      mkdirSync(target);
      const r = await vtr(['state', 'export', target], suite.server.env);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`vtr: usage error: ${target} is a directory; give a file name, e.g. state.json\n`);
      expect(readdirSync(dir)).toEqual(['taken']);
    });

    it('a target in a directory that does not exist says so, naming the path given (not a temp file)', async () => {
      const target = join(scratchDir(), 'missing', 'state.json');
      const r = await vtr(['state', 'export', target], suite.server.env);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`vtr: usage error: cannot write ${target}: the directory ${dirname(target)} does not exist; create it first (mkdir -p ${dirname(target)})\n`);
    });

    it('an empty file name is a usage error naming <file>', async () => {
      const r = await vtr(['state', 'export', ''], suite.server.env);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('<file>: must not be empty');
    });
  });

  describe('--site on listings that cover every site', () => {
    it('an unknown --site (or VTR_SITE) is a 404 naming `vtr sites list`, not an empty listing', async () => {
      const cases: Array<[string[], Record<string, string>]> = [
        [['logs', 'list', '--site', 'site_nope'], {}],
        [['notifications', 'list', '--site', 'site_nope'], {}],
        [['notifications', 'list'], { VTR_SITE: 'site_nope' }],
        [['logs', 'tail', '--site', 'site_nope'], {}],
        [['webhooks', 'tail'], { VTR_SITE: 'site_nope' }],
      ];
      for (const [args, env] of cases) {
        const r = await vtr(args, { ...suite.server.env, ...env }, { timeoutMs: 10_000 });
        expect(r.code, `${args.join(' ')} ${JSON.stringify(env)}: ${r.stderr}`).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(/site site_nope not found \(HTTP 404, not_found\); see `vtr sites list`/);
      }
    });

    it('notifications list: VTR_SITE narrows it like --site', async () => {
      const other = await vtrJson(['sites', 'create', '--name', 'Quiet outbox'], suite.server.env);
      expect(await vtrJson(['notifications', 'list'], { ...suite.server.env, VTR_SITE: other.site_id })).toEqual([]);
    });
  });

  describe('credentials', () => {
    it("session get / session event: a --secret-key (or VTR_SECRET_KEY) without a token reads that key's site, as the API takes it", async () => {
      const other = await vtrJson(['sites', 'create', '--name', 'Keyed'], suite.server.env);
      const created = await vtrJson(['sessions', 'create', '--site', other.site_id], suite.server.env);
      const got = await vtrJson(['session', 'get', created.session_id, '--secret-key', other.secret_key], suite.server.env);
      expect(got.site_id).toBe(other.site_id);
      const added = await vtr(['session', 'event', created.session_id, 'signup'], { ...suite.server.env, VTR_SECRET_KEY: other.secret_key });
      expect(added.code, added.stderr).toBe(0);
      expect((await vtrJson(['session', 'get', created.session_id, '--site', other.site_id], suite.server.env)).custom_events).toEqual(['signup']);
    });
  });

  describe('custom event names', () => {
    it('session event / sessions create --event: 100 emoji are a 100-character name, as the API counts them; 101 are a usage error', async () => {
      const name = '😀'.repeat(100);
      const created = await vtrJson(['sessions', 'create', '--event', name], suite.server.env);
      expect(created.custom_events).toEqual([name]);
      const added = await vtr(['session', 'event', created.session_id, name], suite.server.env);
      expect(added.code, added.stderr).toBe(0);
      expect((await vtrJson(['session', 'get', created.session_id], suite.server.env)).custom_events).toEqual([name, name]);
      const tooLong = await vtr(['session', 'event', created.session_id, `${name}😀`], suite.server.env);
      expect(tooLong.code).toBe(2);
      expect(tooLong.stderr).toContain('1 to 100 characters');
    });

    it('session event / sessions create --event: an empty or blank name (a variable left unset) is a usage error naming it, and nothing is added', async () => {
      for (const name of ['', '   ', '\t']) {
        const r = await vtr(['session', 'event', suite.sessionId, name], suite.server.env);
        expect(r.code, JSON.stringify(name)).toBe(2);
        expect(r.stderr, JSON.stringify(name)).toMatch(/^vtr: usage error: <name>: must not be empty( or blank)?: a custom event needs a name, e\.g\. signup\n$/);
        const created = await vtr(['sessions', 'create', '--event', name, '--json'], suite.server.env);
        expect(created.code, JSON.stringify(name)).toBe(2);
        expect(created.stderr, JSON.stringify(name)).toMatch(/^vtr: usage error: --event: must not be empty( or blank)?: a custom event needs a name, e\.g\. signup\n$/);
        expect(created.stdout).toBe('');
      }
      expect((await vtrJson(['session', 'get', suite.sessionId], suite.server.env)).custom_events.filter((e: string) => e.trim() === '')).toEqual([]);
    });

    it('session event / sessions create --event: spaces around a name are dropped, as the API drops them: " conversion " is the conversion event', async () => {
      const created = await vtrJson(['sessions', 'create', '--event', ' signup\n'], suite.server.env);
      expect(created.custom_events).toEqual(['signup']);
      const r = await vtr(['session', 'event', created.session_id, ' conversion '], suite.server.env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Added "conversion" to');
      expect(r.stdout).toMatch(/engagement_level:\s+converted\n/);
      // The 100 characters are the name's own.
      const long = await vtr(['session', 'event', created.session_id, ` ${'x'.repeat(100)} `], suite.server.env);
      expect(long.code, long.stderr).toBe(0);
    });

    it('session event: the name and the session\'s events (visitors\' too) are shown with control characters escaped, as session get shows them', async () => {
      const created = await vtrJson(['sessions', 'create', '--event', 'a\u001b]0;title\u0007b'], suite.server.env);
      const r = await vtr(['session', 'event', created.session_id, 'x\u001b[2Jy'], suite.server.env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain('\u001b');
      expect(r.stdout).toContain('Added "x\\u001b[2Jy"');
      expect(r.stdout).toMatch(/custom_events:\s+a\\u001b\]0;title\\u0007b, x\\u001b\[2Jy\n/);
    });
  });

  describe('colour sequences in visitors\' text', () => {
    it('session get / sessions list: a colour sequence in a custom event, utm_source, referrer or user agent is shown escaped; --json keeps it as sent', async () => {
      const red = '\u001b[31m';
      const created = await vtrJson(['sessions', 'create', '--event', `ev${red}x`, '--url', `https://example.com/?utm_source=src${red}`, '--referrer', `https://ref.example/${red}`, '--user-agent', `Mozilla/5.0 ${red}`], suite.server.env);
      const got = await vtr(['session', 'get', created.session_id], suite.server.env);
      expect(got.code, got.stderr).toBe(0);
      expect(got.stdout).not.toContain('\u001b');
      expect(got.stdout).toMatch(/custom_events:\s+ev\\u001b\[31mx\n/);
      expect(got.stdout).toMatch(/source:\s+src\\u001b\[31m\n/);
      const list = await vtr(['sessions', 'list'], suite.server.env);
      expect(list.stdout).not.toContain('\u001b');
      expect(list.stdout).toContain('src\\u001b[31m');
      const json = await vtrJson(['session', 'get', created.session_id], suite.server.env);
      expect(json.custom_events).toEqual([`ev${red}x`]);
      expect(json.source).toBe(`src${red}`);
    });
  });

  describe('not found', () => {
    it('a 404 for an id points to the command that lists them', async () => {
      const cases: Array<[string[], string]> = [
        [['session', 'get', 'ses_nope'], 'vtr sessions list --all-sites` (a session of another site needs --site <site-id>)'],
        [['sites', 'show', 'site_nope'], 'vtr sites list'],
        [['webhooks', 'disable', 'wh_nope'], 'vtr webhooks list'],
        [['webhooks', 'event', 'msg_nope'], 'vtr webhooks events <webhook-id>'],
        [['views', 'delete', 'view_nope', '--yes'], 'vtr views list'],
        [['tokens', 'revoke', 'at_test_nope'], 'vtr tokens list'],
      ];
      for (const [args, list] of cases) {
        const r = await vtr(args, suite.server.env);
        expect(r.code, args.join(' ')).toBe(1);
        expect(r.stderr, args.join(' ')).toMatch(new RegExp(`not found \\(HTTP 404, not_found\\); see \`${list.replace(/[<>()-]/g, '.')}${list.endsWith(')') ? '' : '`'}$`, 'm'));
      }
    });
  });

  describe('clock', () => {
    it('advance -5m: a usage error saying the clock only moves forward, not "unknown option"', async () => {
      for (const args of [['clock', 'advance', '-5m'], ['clock', 'advance', '--', '-5m']]) {
        const r = await vtr(args, suite.server.env);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr).toContain('vtr: usage error: <duration>: "-5m": the clock only moves forward');
        expect(r.stderr).not.toContain('unknown option');
      }
    });

    it('set <past>: the message includes the time asked for, the clock\'s current time and what to do', async () => {
      const manual = await startServer(['--memory', '--clock', 'manual']);
      try {
        const now = (await vtrJson(['clock'], manual.env)).now as string;
        const r = await vtr(['clock', 'set', '2000-01-01T00:00:00Z'], manual.env);
        expect(r.code).toBe(1);
        // A time shown to a person: its zone, and "emulated" (the clock is not the real one).
        const said = r.stderr.match(/2000-01-01 00:00:00 UTC is before the clock's current time, (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC \(emulated\):/)?.[1];
        expect(said, r.stderr).toBeDefined();
        // The clock runs on between the two commands: the time given is the current one (to the second), or later.
        const saidMs = Date.parse(`${said!.replace(' ', 'T')}Z`);
        expect(saidMs).toBeGreaterThanOrEqual(Date.parse(`${now}Z`) - 1000);
        expect(saidMs - Date.parse(`${now}Z`)).toBeLessThan(60_000);
        expect(r.stderr).toContain('only moves forward, and `vtr state reset` keeps it.');
        expect(r.stderr).toContain('starts at the real time');
      } finally {
        await manual.stop();
      }
    });
  });
});
