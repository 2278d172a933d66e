// Global flags on the built binary mean what they say, or are refused: --site where a command has no
// site to pick, --limit that cut a listing, credential flags against the environment's.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { scratchDir, suiteServer, vtr, vtrJson } from '../helpers/foundation-e2e.js';
import { spawnCli } from '../helpers/cli-process.js';
import { waitUntil } from '../helpers/receiver.js';

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

const suite = suiteServer();

describe('cli flag scope (built binary)', { timeout: 120_000 }, () => {
  it('--site: a command over the whole emulator (or no site at all) refuses it with exit 2, naming the flag and why', async () => {
    const cases = [
      ['state', 'export', join(scratchDir(), 'state.json')],
      ['state', 'reset', '--yes'],
      ['clock'],
      ['clock', 'advance', '5m'],
      ['health'],
      ['testvalues'],
      ['openapi'],
      ['sites', 'list'],
    ];
    for (const args of cases) {
      const r = await vtr([...args, '--site', 'site_nope'], suite.server.env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^vtr: usage error: --site: \`vtr ${args.filter((a) => !a.startsWith('-') && !a.includes('/') && a !== '5m').join(' ')}\` `));
    }
    // The state was not touched: the one session is still there.
    expect((await vtrJson(['sessions', 'list'], suite.server.env)).map((s: { session_id: string }) => s.session_id)).toContain(suite.sessionId);
  });

  it('--site: VTR_SITE (which `vtr exec` always sets) does not stop those commands', async () => {
    const site = suite.server.site!.site_id;
    expect(await vtrJson(['clock'], { ...suite.server.env, VTR_SITE: site })).toMatchObject({ mode: 'system' });
    expect((await vtr(['health'], { ...suite.server.env, VTR_SITE: site })).code).toBe(0);
  });

  it('--secret-key / --token: a command that picks its site with --site refuses them (exit 2) rather than act on the default site', async () => {
    const env = suite.server.env;
    const before = await vtrJson(['keys', 'show'], env);
    const other = await vtrJson(['sites', 'create', '--name', 'Other'], env);
    const cases = [
      ['keys', 'rotate', '--secret-key', other.secret_key],
      ['keys', 'show', '--token', 'at_test_x'],
      ['tokens', 'create', '--secret-key', other.secret_key],
      ['views', 'create', '--name', 'v', '--filter', 'risk_level = invalid', '--secret-key', other.secret_key],
      ['sessions', 'create', '--secret-key', other.secret_key],
      ['sessions', 'list', '--token', 'at_test_x'],
      ['logs', 'list', '--secret-key', other.secret_key],
      ['rules', 'create', '--name', 'r', '--filter', 'risk_level = invalid', '--action', 'block', '--secret-key', other.secret_key],
      ['webhooks', 'create', '--url', 'http://127.0.0.1:9/x', '--token', 'at_test_x'],
      ['notifications', 'list', '--secret-key', other.secret_key],
    ];
    for (const args of cases) {
      const r = await vtr(args, env);
      const flag = args[args.length - 2];
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^vtr: usage error: ${flag}: \`vtr ${args[0]} ${args[1]}\` picks its site with --site <site-id>`));
    }
    // Nothing was done to the default site; its help does not offer the flags.
    expect(await vtrJson(['keys', 'show'], env)).toEqual(before);
    expect((await vtr(['keys', 'rotate', '--help'], env)).stdout).not.toMatch(/--secret-key|--token/);
    expect(await vtrJson(['rules', 'list'], env)).toHaveLength((await vtrJson(['rules', 'list', '--site', other.site_id], env)).length);
    expect(await vtrJson(['webhooks', 'list'], env)).toEqual([]);
    // The environment's keys (which `vtr exec` always sets) do not stop them.
    expect((await vtr(['keys', 'show'], { ...env, VTR_SECRET_KEY: other.secret_key, VTR_ACCESS_TOKEN: 'at_test_x' })).code).toBe(0);
  });

  it('check --token: refused (exit 2, saying the check takes the secret key) rather than ignored for the default site\'s key', async () => {
    const r = await vtr(['check', '--ip', '192.0.2.1', '--token', 'at_test_x'], suite.server.env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^vtr: usage error: --token: `vtr check` sends the site's secret key, not an access token; give --secret-key or --site <site-id>/);
    expect((await vtr(['check', '--help'], suite.server.env)).stdout).not.toContain('--token');
    // VTR_ACCESS_TOKEN (which `vtr exec` always sets) does not stop it.
    expect((await vtr(['check', '--ip', '192.0.2.1'], { ...suite.server.env, VTR_ACCESS_TOKEN: 'at_test_x' })).code).toBe(0);
  });

  it('an empty --site, --secret-key, --token or --admin-token (a shell variable left unset) is a usage error, never the default site', async () => {
    const before = await vtrJson(['keys', 'show'], suite.server.env);
    const cases = [
      ['keys', 'rotate', '--site', ''],
      ['check', '--ip', '192.0.2.1', '--secret-key', ''],
      ['session', 'get', suite.sessionId, '--token', ''],
      ['sites', 'list', '--admin-token', ''],
    ];
    for (const args of cases) {
      const r = await vtr(args, suite.server.env);
      const flag = args[args.length - 2];
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`vtr: usage error: ${flag}: must not be empty`);
    }
    expect(await vtrJson(['keys', 'show'], suite.server.env)).toEqual(before);
  });

  it('an empty --webhook, --session, --view or --status is a usage error, not "every one" or "a new one"', async () => {
    const hook = await vtrJson(['webhooks', 'create', '--url', 'http://127.0.0.1:9/'], suite.server.env);
    const cases = [
      ['webhooks', 'tail', '--webhook', ''],
      ['webhooks', 'trigger', hook.webhook_id, '--session', ''],
      ['webhooks', 'trigger', hook.webhook_id, '--view', ''],
      ['webhooks', 'events', hook.webhook_id, '--status', ''],
    ];
    for (const args of cases) {
      const r = await vtr(args, suite.server.env, { timeoutMs: 10_000 });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`vtr: usage error: ${args[args.length - 2]}: must not be empty`);
    }
    expect(await vtrJson(['webhooks', 'events', hook.webhook_id], suite.server.env)).toEqual([]);
  });

  it('webhooks events: none to list says which status was asked for (No pending events.), and No events. without --status', async () => {
    const hook = await vtrJson(['webhooks', 'create', '--url', 'http://127.0.0.1:9/'], suite.server.env);
    const pending = await vtr(['webhooks', 'events', hook.webhook_id, '--status', 'pending'], suite.server.env, { timeoutMs: 10_000 });
    expect(pending.code).toBe(0);
    expect(pending.stdout.trim()).toBe('No pending events.');
    expect((await vtr(['webhooks', 'events', hook.webhook_id], suite.server.env, { timeoutMs: 10_000 })).stdout.trim()).toBe('No events.');
  });

  it('an empty or blank number (--port, --fail, --bounce-seconds, --duration: a shell variable left unset) is a usage error, not 0', async () => {
    const env = suite.server.env;
    const site = await vtrJson(['keys', 'show'], env);
    const bounce = (await vtrJson(['sites', 'show', site.site_id], env)).bounce_seconds;
    const sessions = (await vtrJson(['sessions', 'list', '--limit', '1000'], env)).length;
    const cases = [
      ['webhooks', 'receive', '--port', ''],
      ['webhooks', 'receive', '--fail', ' '],
      ['sites', 'update', site.site_id, '--bounce-seconds', ''],
      ['sessions', 'create', '--duration', ''],
      ['sessions', 'create', '--duration', '0x10'],
    ];
    for (const args of cases) {
      const r = await vtr(args, env, { timeoutMs: 10_000 });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^vtr: usage error: ${args[args.length - 2]}: "${args[args.length - 1]}" must be a whole number`));
    }
    expect((await vtrJson(['sites', 'show', site.site_id], env)).bounce_seconds).toBe(bounce);
    expect((await vtrJson(['sessions', 'list', '--limit', '1000'], env)).length).toBe(sessions);
  });

  it('numeric flags: every one takes digits only, so 0x10, 1e1 or 1.0 is a usage error naming the flag, not 16 or 10', async () => {
    const env = suite.server.env;
    const hook = await vtrJson(['webhooks', 'create', '--url', 'http://127.0.0.1:9/hook'], env);
    const cases = [
      ['sessions', 'list', '--limit', '0x10'],
      ['sessions', 'list', '--limit', '1e1'],
      ['logs', 'list', '--limit', '0x10'],
      ['notifications', 'list', '--limit', '1e1'],
      ['sessions', 'simulate', '--count', '1e1'],
      ['sessions', 'create', '--page-views', '2.0'],
      ['rules', 'update', 'repeat_device', '--threshold', '0x10'],
      ['webhooks', 'events', hook.webhook_id, '--limit', '0x10'],
    ];
    const sessions = (await vtrJson(['sessions', 'list', '--limit', '1000'], env)).length;
    for (const args of cases) {
      const r = await vtr(args, env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(`^vtr: usage error: ${args[args.length - 2]}: "${args[args.length - 1]}" must be a whole number from \\d+ to \\d+`));
    }
    expect((await vtrJson(['sessions', 'list', '--limit', '1000'], env)).length).toBe(sessions);
  });

  it('sessions create: an empty or blank --fingerprint is a usage error naming the flag, not a new fingerprint', async () => {
    const before = (await vtrJson(['sessions', 'list', '--limit', '1000'], suite.server.env)).length;
    for (const [fp, says] of [['', 'must not be empty ('], ['  ', 'must not be empty or blank']]) {
      const r = await vtr(['sessions', 'create', '--fingerprint', fp], suite.server.env);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`vtr: usage error: --fingerprint: ${says}`);
    }
    expect((await vtrJson(['sessions', 'list', '--limit', '1000'], suite.server.env)).length).toBe(before);
  });

  it('--site: a command on one record by id refuses a --site the record is not on (exit 2, nothing changed); its own site is fine', async () => {
    const env = suite.server.env;
    const other = await vtrJson(['sites', 'create', '--name', 'Other', '--plan', 'paid'], env);
    const own = suite.server.site!.site_id;
    const view = await vtrJson(['views', 'create', '--name', 'scoped', '--filter', 'channel = paid'], env);
    const hook = await vtrJson(['webhooks', 'create', '--url', 'http://127.0.0.1:9/'], env);
    const event = await vtrJson(['webhooks', 'trigger', hook.webhook_id, '--session', suite.sessionId], env);
    const cases = [
      [['views', 'delete', view.saved_view_id, '--yes'], `saved view ${view.saved_view_id}`],
      [['views', 'update', view.saved_view_id, '--name', 'moved'], `saved view ${view.saved_view_id}`],
      [['webhooks', 'disable', hook.webhook_id], `webhook ${hook.webhook_id}`],
      [['webhooks', 'delete', hook.webhook_id, '--yes'], `webhook ${hook.webhook_id}`],
      [['webhooks', 'secret', hook.webhook_id], `webhook ${hook.webhook_id}`],
      [['webhooks', 'events', hook.webhook_id], `webhook ${hook.webhook_id}`],
      [['webhooks', 'trigger', hook.webhook_id, '--session', suite.sessionId], `webhook ${hook.webhook_id}`],
      [['webhooks', 'event', event.webhook_event_id], `event ${event.webhook_event_id}`],
      [['webhooks', 'retry', event.webhook_event_id], `event ${event.webhook_event_id}`],
      [['webhooks', 'retry', '--all-failed', '--webhook', hook.webhook_id], `webhook ${hook.webhook_id}`],
    ] as const;
    for (const [args, what] of cases) {
      const r = await vtr([...args, '--site', other.site_id], env, { timeoutMs: 10_000 });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`vtr: usage error: --site: ${what} is on site ${own}, not ${other.site_id}; leave --site out, or give --site ${own}`);
    }
    expect(await vtrJson(['views', 'list'], env)).toEqual(expect.arrayContaining([expect.objectContaining({ saved_view_id: view.saved_view_id, name: 'scoped' })]));
    expect((await vtrJson(['webhooks', 'list'], env)).find((w: { webhook_id: string }) => w.webhook_id === hook.webhook_id)).toMatchObject({ status: 'enabled' });
    expect(await vtrJson(['webhooks', 'events', hook.webhook_id], env)).toHaveLength(1);
    // Its own site, given explicitly, is what the record is on.
    expect(await vtrJson(['views', 'update', view.saved_view_id, '--name', 'renamed', '--site', own], env)).toMatchObject({ name: 'renamed' });
    expect((await vtr(['webhooks', 'delete', hook.webhook_id, '--yes', '--site', own], env)).code).toBe(0);
  });

  it('--site: tokens revoke refuses a --site the token is not on (exit 2, the token still works); its own site is fine', async () => {
    const env = suite.server.env;
    const other = await vtrJson(['sites', 'create', '--name', 'Token scope'], env);
    const own = suite.server.site!.site_id;
    const token = await vtrJson(['tokens', 'create'], env);
    const r = await vtr(['tokens', 'revoke', token.token, '--site', other.site_id], env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`vtr: usage error: --site: access token ${token.token} is on site ${own}, not ${other.site_id}; leave --site out, or give --site ${own}`);
    expect((await vtrJson(['tokens', 'list'], env)).find((t: { token: string }) => t.token === token.token)).toMatchObject({ revoked_at: null });
    expect(await vtrJson(['tokens', 'revoke', token.token, '--site', own], env)).toMatchObject({ token: token.token, revoked_at: expect.any(String) });
  });

  it('--site: sites show, update and delete <id> refuse a --site naming another site (exit 2, nothing changed); the same site is fine', async () => {
    const env = suite.server.env;
    const a = await vtrJson(['sites', 'create', '--name', 'Site A'], env);
    const b = await vtrJson(['sites', 'create', '--name', 'Site B'], env);
    for (const args of [['show', a.site_id], ['update', a.site_id, '--name', 'Renamed'], ['delete', a.site_id, '--yes']]) {
      const r = await vtr(['sites', ...args, '--site', b.site_id], env);
      expect(r.code, `sites ${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`vtr: usage error: --site: ${b.site_id} is not the site given, ${a.site_id}; leave --site out`);
    }
    expect(await vtrJson(['sites', 'show', a.site_id], env)).toMatchObject({ name: 'Site A' });
    expect(await vtrJson(['sites', 'update', a.site_id, '--name', 'Renamed', '--site', a.site_id], env)).toMatchObject({ name: 'Renamed' });
  });

  it('webhooks tail --webhook: VTR_SITE (as `vtr exec` sets it) does not hide the attempts of a webhook of another site', async () => {
    const env = { ...suite.server.env, VTR_SITE: suite.server.site!.site_id };
    const other = await vtrJson(['sites', 'create', '--name', 'Tailed', '--plan', 'paid'], env);
    const hook = await vtrJson(['webhooks', 'create', '--url', 'http://127.0.0.1:9/', '--site', other.site_id], env);
    const tail = spawnCli(['webhooks', 'tail', '--json', '--webhook', hook.webhook_id], env, cleanup);
    await tail.waitErr(/Tailing/);
    expect((await vtr(['webhooks', 'trigger', hook.webhook_id], env)).code).toBe(0);
    await waitUntil(() => tail.lines().length > 0, 20_000, () => `tail printed: ${tail.stdout()}`);
    expect(tail.lines()[0]).toMatchObject({ webhook_id: hook.webhook_id, site_id: other.site_id, attempt: 1 });
  });

  it('--site with --all: tokens list and webhooks list refuse the pair, as sessions list --all-sites does', async () => {
    for (const args of [['tokens', 'list', '--all'], ['webhooks', 'list', '--all']]) {
      const r = await vtr([...args, '--site', suite.server.site!.site_id], suite.server.env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/--all lists every site, --site one: give only one of them/);
    }
  });
});

describe('--limit that cut a listing (built binary)', { timeout: 120_000 }, () => {
  it('sessions list / logs list / webhooks events: more items than --limit says so on stderr only, with how to see them', async () => {
    const env = suite.server.env;
    for (let i = 0; i < 2; i++) await vtrJson(['sessions', 'create'], env);
    const cut = await vtr(['sessions', 'list', '--limit', '2', '--json'], env);
    expect(cut.code).toBe(0);
    expect(JSON.parse(cut.stdout)).toHaveLength(2);
    expect(cut.stderr).toMatch(/^Showing the newest 2 sessions; there are more: raise --limit \(up to 10000\) to see them\.\n$/);
    const all = await vtr(['sessions', 'list', '--limit', '3'], env);
    expect(all.stdout.trim().split('\n')).toHaveLength(4);
    expect(all.stderr).toBe('');
    expect((await vtr(['sessions', 'list', '--limit', '1', '--quiet'], env)).stderr).toBe('');

    await vtrJson(['session', 'get', suite.sessionId], env);
    await vtrJson(['session', 'get', suite.sessionId], env);
    const logs = await vtr(['logs', 'list', '--limit', '1', '--json'], env);
    expect(JSON.parse(logs.stdout)).toHaveLength(1);
    expect(logs.stderr).toMatch(/^Showing the newest 1 request; there are more: raise --limit/);

    const hook = await vtrJson(['webhooks', 'create', '--url', 'http://127.0.0.1:9/'], env);
    for (let i = 0; i < 2; i++) await vtrJson(['webhooks', 'trigger', hook.webhook_id], env);
    const events = await vtr(['webhooks', 'events', hook.webhook_id, '--limit', '1'], env);
    expect(events.code).toBe(0);
    expect(events.stderr).toMatch(/^Showing the newest 1 event; there are more: raise --limit/);
    expect((await vtr(['webhooks', 'events', hook.webhook_id, '--limit', '2'], env)).stderr).toBe('');
  });
});
