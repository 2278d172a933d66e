// `vtr rules` and `vtr check --fail-on review|blocked` through the built CLI against a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, type ServerProcess } from '../helpers/vtr-process.js';

let server: ServerProcess;
beforeAll(async () => {
  server = await startServer(['--memory']);
});
afterAll(() => server?.stop());

const vtr = (args: string[]) => runCli(args, { env: server.env });

describe('vtr rules', () => {
  it('rules: list, create, update a smart rule, and the check decides by them', async () => {
    const list = await vtr(['rules', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/repeat_device\s+smart\s+no\s+review/);
    const made = await vtr(['rules', 'create', '--name', 'Disposable sign-ups', '--filter', 'risks contains disposable_email', '--action', 'block', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const rule = JSON.parse(made.stdout) as { rule_id: string; type: string };
    expect(rule.type).toBe('custom');

    const human = await vtr(['check', '--email', 'x@mailinator.com']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/outcome\s+blocked/);
    expect(human.stdout).toContain(`Disposable sign-ups (block, ${rule.rule_id})`);

    const blocked = await vtr(['check', '--email', 'y@mailinator.com', '--fail-on', 'blocked']);
    expect(blocked.code).toBe(3);
    expect(blocked.stderr).toContain('the outcome is blocked: reached --fail-on blocked');
    expect((await vtr(['check', '--ip', '192.0.2.1', '--fail-on', 'blocked'])).code).toBe(0);
    // A datacenter IP asks for review (the anonymous rule) without being blocked.
    expect((await vtr(['check', '--ip', '198.51.100.7', '--fail-on', 'review'])).code).toBe(3);
    expect((await vtr(['check', '--ip', '198.51.100.7', '--fail-on', 'blocked'])).code).toBe(0);

    const updated = await vtr(['rules', 'update', 'anonymous', '--disable', '--json']);
    expect(JSON.parse(updated.stdout)).toMatchObject({ rule_id: 'anonymous', enabled: false });
    expect((await vtr(['check', '--ip', '198.51.100.7', '--fail-on', 'review'])).code).toBe(0);

    expect((await vtr(['rules', 'delete', rule.rule_id, '--yes'])).code).toBe(0);
    expect((await vtr(['check', '--email', 'z@mailinator.com', '--fail-on', 'blocked'])).code).toBe(0);
  });

  it('rules delete: a built-in or unknown rule is refused before asking, not after a --yes that cannot help', async () => {
    // Without a terminal a delete that would go ahead needs --yes; these would not go ahead at all.
    const builtIn = await vtr(['rules', 'delete', 'anonymous']);
    expect(builtIn.code).toBe(2);
    expect(builtIn.stderr).toContain('anonymous is a built-in rule and cannot be deleted; disable it instead');
    expect(builtIn.stderr).not.toContain('--yes');
    const unknown = await vtr(['rules', 'delete', 'rule_nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('rule_nope');
    expect(unknown.stderr).toContain('not found');
    expect(unknown.stderr).not.toContain('--yes');
    const made = JSON.parse((await vtr(['rules', 'create', '--name', 'Temp', '--filter', 'page_views > 90', '--action', 'review', '--json'])).stdout) as { rule_id: string };
    const asked = await vtr(['rules', 'delete', made.rule_id]);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('("Delete rule Temp (' + made.rule_id + ')?"): pass --yes to go ahead');
    expect((await vtr(['rules', 'delete', made.rule_id, '--yes'])).code).toBe(0);
  });

  it('rules: bad input is a usage error naming the flag (exit 2)', async () => {
    const filter = await vtr(['rules', 'create', '--name', 'x', '--filter', 'risks contans vpn', '--action', 'block']);
    expect(filter.code).toBe(2);
    expect(filter.stderr).toContain('--filter:');
    expect(filter.stderr).toContain('^');
    const action = await vtr(['rules', 'create', '--name', 'x', '--filter', 'risks contains vpn', '--action', 'deny']);
    expect(action.code).toBe(2);
    expect(action.stderr).toContain('--action');
    const threshold = await vtr(['rules', 'update', 'repeat_device', '--threshold', 'many']);
    expect(threshold.code).toBe(2);
    expect(threshold.stderr).toContain('--threshold');
    const huge = await vtr(['rules', 'update', 'repeat_device', '--threshold', '2000000']);
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain('--threshold: "2000000" must be a whole number from 1 to 1000000');
    for (const typed of ['0x10', '1e1', '', ' ']) {
      const odd = await vtr(['rules', 'update', 'repeat_device', '--threshold', typed]);
      expect(odd.code, typed).toBe(2);
      expect(odd.stderr).toContain(`--threshold: "${typed}" must be a whole number from 1 to 1000000`);
    }
    const unchanged = JSON.parse((await vtr(['rules', 'list', '--json'])).stdout) as { rule_id: string; threshold: number | null }[];
    expect(unchanged.find((r) => r.rule_id === 'repeat_device')?.threshold).toBe(10);
    const failOn = await vtr(['check', '--ip', '192.0.2.1', '--fail-on', 'never']);
    expect(failOn.code).toBe(2);
  });

  it('rules update, delete: a built-in rule they cannot act on is a usage error naming <rule-id> (exit 2), as other refused input is', async () => {
    for (const args of [['rules', 'delete', 'bot', '--yes'], ['rules', 'delete', 'allowlist', '--yes'], ['rules', 'update', 'allowlist', '--action', 'block']]) {
      const r = await vtr(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^vtr: usage error: <rule-id>: /);
      expect(r.stdout, args.join(' ')).toBe('');
    }
    expect((await vtr(['rules', 'delete', 'bot', '--yes'])).stderr).toContain('bot is a built-in rule and cannot be deleted; disable it instead (`vtr rules update bot --disable`)');
    expect((await vtr(['rules', 'update', 'allowlist', '--action', 'block'])).stderr).toContain("the allowlist rule is the site's ip_allowlist: change it with `vtr sites update");
  });

  it('rules, views: a filter over 4000 characters is a usage error with the position, as --where says it', async () => {
    const long = Array(250).fill('risks contains vpn').join(' or ');
    for (const args of [['rules', 'create', '--name', 'x', '--filter', long, '--action', 'block'], ['views', 'create', '--name', 'x', '--filter', long]]) {
      const r = await vtr(args);
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr, args[0]).toContain(`--filter: the filter is too long: ${long.length} characters, at most 4000 (position 4000)`);
      expect(r.stderr, args[0]).toMatch(/\n {2,}\^\n/);
    }
  });

  it('rules update, delete: a custom rule of another site is a usage error naming its site and --site, and is left as it was', async () => {
    const other = JSON.parse((await vtr(['sites', 'create', '--name', 'Shop two', '--json'])).stdout) as { site_id: string };
    const made = JSON.parse((await vtr(['rules', 'create', '--site', other.site_id, '--name', 'FR', '--filter', 'country_code = FR', '--action', 'block', '--json'])).stdout) as { rule_id: string };
    for (const args of [['rules', 'update', made.rule_id, '--disable'], ['rules', 'delete', made.rule_id, '--yes']]) {
      const r = await vtr(args);
      expect(r.code, args[1]).toBe(2);
      expect(r.stderr, args[1]).toContain(`--site: rule ${made.rule_id} is on site ${other.site_id}`);
      expect(r.stderr, args[1]).toContain(`give --site ${other.site_id}`);
    }
    const kept = JSON.parse((await vtr(['rules', 'list', '--site', other.site_id, '--json'])).stdout) as { rule_id: string; enabled: boolean }[];
    expect(kept.find((x) => x.rule_id === made.rule_id)?.enabled).toBe(true);
    const unknown = await vtr(['rules', 'delete', 'rule_nope', '--yes']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('rule rule_nope not found');
  });
});
