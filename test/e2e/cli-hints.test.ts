// The CLI's help and what it says at start-up and around it, on the built binary: refusals, an
// emulator that is not running or stops mid-request, emulated times, hints on stderr.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { startServer } from '../helpers/vtr-process.js';
import { parseOne, scratchDir, suiteServer, vtr, vtrJson } from '../helpers/foundation-e2e.js';
import { freePort as closedPort } from '../helpers/cli-process.js';

const suite = suiteServer();

describe('cli hints (built binary)', { timeout: 120_000 }, () => {
  describe('help', () => {
    it('serve --help shows its own --admin-token; examples with prose end in a # comment', async () => {
      const serve = await vtr(['serve', '--help']);
      expect(serve.stdout).toMatch(/--admin-token <token> +require this token on non-loopback binds/);
      expect((await vtr(['state', 'import', '--help'])).stdout).toContain('vtr serve --import demo.json   # at start-up');
      expect((await vtr(['openapi', '--help'])).stdout).toContain('openapi.json   # the same document, served');
    });

    it('serve --help, exec --help: --retry-base and --retry-schedule each say that --retry-schedule replaces --retry-base, not both', async () => {
      for (const cmd of ['serve', 'exec']) {
        // Commander wraps the descriptions to the width: compare them on one line.
        const help = (await vtr([cmd, '--help'])).stdout.replace(/\s+/g, ' ');
        expect(help, cmd).toContain('--retry-base <duration> first retry delay; each next one doubles (or --retry-schedule, not both)');
        expect(help, cmd).toContain('--retry-schedule <list> all five retry delays, e.g. 5s,5m,30m,2h,5h; replaces --retry-base (not both)');
      }
    });
  });

  describe('missing arguments', () => {
    it('clock advance, session event, rules delete without their argument: the usage error names it and gives an example, as state export does', async () => {
      const cases: Array<[string[], string]> = [
        [['clock', 'advance'], "vtr: usage error: missing required argument 'duration': e.g. `vtr clock advance 5m` (see `vtr clock advance --help`)\n"],
        [['clock', 'set'], "vtr: usage error: missing required argument 'timestamp': e.g. `vtr clock set 2026-12-01T09:00:00` (see `vtr clock set --help`)\n"],
        [['session', 'event', 'ses_1'], "vtr: usage error: missing required argument 'name': e.g. `vtr session event ses_123 signup` (see `vtr session event --help`)\n"],
      ];
      for (const [args, said] of cases) {
        const r = await vtr(args);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr, args.join(' ')).toBe(said);
      }
    });
  });

  describe('missing option values', () => {
    it('check --fail-on, sessions list --limit, serve --clock without a value: the usage error names the flag, what it takes and an example', async () => {
      const cases: Array<[string[], string]> = [
        [['check', '--fail-on'], "vtr: usage error: --fail-on needs a value (<level>): exit 3 when the risk level is at least unwanted, suspicious or invalid; or on review (review asked, or blocked) or blocked (the outcome); e.g. `vtr check --ip 203.0.113.7 --fail-on suspicious` (see `vtr check --help`)\n"],
        [['serve', '--clock'], 'vtr: usage error: --clock needs a value (<mode>): one of system, manual, frozen; e.g. `vtr serve --clock frozen` (see `vtr serve --help`)\n'],
      ];
      for (const [args, said] of cases) {
        const r = await vtr(args);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr, args.join(' ')).toBe(said);
      }
      const limit = await vtr(['sessions', 'list', '--limit']);
      expect(limit.stderr).toMatch(/^vtr: usage error: --limit needs a value \(<n>\): at most this many.* \(see `vtr sessions list --help`\)\n$/);
    });
  });

  describe('start-up refusals and hints', () => {
    it('serve --db <not SQLite>: exit 1 naming the file; --export-on-exit into a missing directory: exit 2 naming the flag', async () => {
      const dir = scratchDir();
      const junk = join(dir, 'junk.db');
      writeFileSync(junk, 'this is not a database, just some text long enough to be read as a header');
      const r = await vtr(['serve', '--db', junk, '--port', '0']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${junk} is not a SQLite database vtr can read`);
      const e = await vtr(['serve', '--memory', '--port', '0', '--export-on-exit', join(dir, 'missing', 'state.json')]);
      expect(e.code).toBe(2);
      expect(e.stderr).toMatch(/--export-on-exit: cannot write .*state\.json/);
    });

    it('health: an emulator that is not running is said as every command says it', async () => {
      const port = await closedPort();
      const r = await vtr(['health'], { VTR_BASE_URL: `http://127.0.0.1:${port}/api/v1` });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`cannot reach the emulator at http://127.0.0.1:${port}`);
      expect(r.stderr).toContain(`npx vtr serve --port ${port}`);
    });

    it('a server that closes the connection without answering (stopped or killed mid-request): the outcome is unknown, not "cannot reach"', async () => {
      const srv = createServer((socket) => socket.once('data', () => socket.destroy()));
      await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
      const port = (srv.address() as { port: number }).port;
      try {
        const env = { VTR_BASE_URL: `http://127.0.0.1:${port}/api/v1`, VTR_SECRET_KEY: 'sk_test_x', VTR_ACCESS_TOKEN: 'at_test_x' };
        const write = await vtr(['check', '--ip', '192.0.2.1'], env);
        expect(write.code).toBe(1);
        expect(write.stderr).toContain(`the emulator at http://127.0.0.1:${port} closed the connection without answering: whether the request was carried out is unknown`);
        expect(write.stderr).toMatch(/Did it stop\? Check what the request would have changed before sending it again; start it again with `npx vtr serve --port \d+`/);
        const read = await vtr(['session', 'get', 'ses_x'], env);
        expect(read.code).toBe(1);
        expect(read.stderr).toContain(`closed the connection without answering. Did it stop? Start it again with`);
        for (const r of [write, read]) expect(r.stderr).not.toContain('cannot reach');
      } finally {
        srv.close();
      }
    });

    it('tokens revoke, webhooks disable, sites delete of the default: emulated times marked, the new default named', async () => {
      const frozen = await startServer(['--memory', '--clock', 'frozen']);
      try {
        const token = (await vtrJson(['tokens', 'create'], frozen.env)).token as string;
        const revoked = await vtr(['tokens', 'revoke', token, '--yes'], frozen.env);
        expect(revoked.stdout).toMatch(/^Revoked at_test_\S+ at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(emulated\)$/m);
        const hook = (await vtrJson(['webhooks', 'create', '--url', 'http://127.0.0.1:9/'], frozen.env)).webhook_id as string;
        expect((await vtr(['webhooks', 'disable', hook], frozen.env)).stdout).toMatch(/created_at: +\S+ \S+ UTC \(emulated\)/);
        const first = (await vtrJson(['sites', 'list'], frozen.env))[0].site_id as string;
        const other = (await vtrJson(['sites', 'create', '--name', 'Heir'], frozen.env)).site_id as string;
        const del = await vtr(['sites', 'delete', first, '--yes'], frozen.env);
        expect(del.stderr).toContain(`${first} was the default site; the default is now ${other} ("Heir")`);
      } finally {
        await frozen.stop();
      }
    });

    it('views create/update --trigger-webhooks: a site with no enabled webhook is said on stderr, stdout unchanged', async () => {
      const site = (await vtrJson(['sites', 'create', '--name', 'No hooks'], suite.server.env)).site_id as string;
      const create = await vtr(['views', 'create', '--name', 'v', '--filter', 'page_views >= 1', '--trigger-webhooks', '--site', site, '--json'], suite.server.env);
      expect(create.code).toBe(0);
      const view = parseOne(create.stdout);
      expect(view).toMatchObject({ site_id: site, trigger_webhooks: true });
      expect(create.stderr).toBe(`Site ${site} has no webhooks: nothing is sent for this view until one is added: vtr webhooks create --url <url> --site ${site}\n`);
      const hook = (await vtrJson(['webhooks', 'create', '--url', 'http://127.0.0.1:9/', '--site', site], suite.server.env)).webhook_id as string;
      await vtr(['webhooks', 'disable', hook], suite.server.env);
      const update = await vtr(['views', 'update', view.saved_view_id, '--trigger-webhooks'], suite.server.env);
      expect(update.code).toBe(0);
      expect(update.stdout).toMatch(/trigger_webhooks: true/);
      expect(update.stderr).toBe(`Every webhook of site ${site} is disabled: nothing is sent for this view until one is enabled: vtr webhooks enable ${hook}\n`);
      await vtr(['webhooks', 'enable', hook], suite.server.env);
      expect((await vtr(['views', 'update', view.saved_view_id, '--trigger-webhooks'], suite.server.env)).stderr).toBe('');
    });

    it('views create/update --trigger-webhooks: a free-plan site is said on stderr with the plan change, not a webhooks create it would refuse', async () => {
      const site = (await vtrJson(['sites', 'create', '--name', 'Free shop', '--plan', 'free'], suite.server.env)).site_id as string;
      const create = await vtr(['views', 'create', '--name', 'v', '--filter', 'page_views >= 1', '--trigger-webhooks', '--site', site, '--json'], suite.server.env);
      expect(create.code).toBe(0);
      const view = parseOne(create.stdout);
      const said = `Site ${site} is on the free plan: webhooks deliver on paid sites only, so nothing is sent for this view: vtr sites update ${site} --plan paid, then vtr webhooks create --url <url> --site ${site}\n`;
      expect(create.stderr).toBe(said);
      expect((await vtr(['views', 'update', view.saved_view_id, '--trigger-webhooks'], suite.server.env)).stderr).toBe(said);
    });

    it('views list, webhooks list: nothing to list is said on stdout, the hint goes to stderr', async () => {
      const views = await vtr(['views', 'list', '--site', (await vtrJson(['sites', 'create', '--name', 'Empty'], suite.server.env)).site_id], suite.server.env);
      expect(views.stdout.trim()).toBe('No saved views.');
      expect(views.stderr).toContain('Create one: vtr views create');
    });
  });
});
