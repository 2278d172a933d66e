// `vtr check`, `vtr testvalues` and `vtr sessions simulate` as a user runs them, against a spawned
// `vtr serve` (the installed command: VTR_CLI, default bin/vtr).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, tempDir, type ServerProcess } from '../helpers/vtr-process.js';

let server: ServerProcess;
const vtr = (args: string[], opts: { input?: string; env?: Record<string, string> } = {}) =>
  runCli(args, { env: { ...server.env, NO_COLOR: undefined, ...opts.env }, input: opts.input, timeoutMs: 60_000 });

beforeAll(async () => {
  server = await startServer(['--memory']);
});
afterAll(async () => {
  await server?.stop();
});

describe('vtr check', { timeout: 90_000 }, () => {
  it('check, session get, sessions list: an unknown --site is said in one wording, whichever command took it', async () => {
    const said = `vtr: error: --site: site site_nope not found (HTTP 404, not_found); see \`vtr sites list\`\n`;
    for (const args of [['check', '--ip', '192.0.2.1'], ['session', 'get', 'ses_x'], ['sessions', 'list']]) {
      const r = await vtr([...args, '--site', 'site_nope']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toBe(said);
    }
  });

  it('session get, session event: a session that does not exist is named in the error, as a missing webhook event or site is', async () => {
    for (const args of [['session', 'get', 'ses_nope'], ['session', 'event', 'ses_nope', 'conversion']]) {
      const r = await vtr([...args, '--json']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toBe('vtr: error: session ses_nope not found (HTTP 404, not_found); see `vtr sessions list --all-sites` (a session of another site needs --site <site-id>)\n');
    }
  });

  it('check: a flag given empty (--ip "$IP" with IP unset) is exit 2 naming it, and nothing is checked', async () => {
    for (const [flag, value] of [['--ip', ''], ['--email', '  '], ['--postal-code', '']]) {
      const r = await vtr(['check', flag, value, '--json']);
      expect(r.code, flag).toBe(2);
      expect(r.stdout, flag).toBe('');
      expect(r.stderr, flag).toMatch(new RegExp(`^vtr: usage error: ${flag}: must not be empty.*a shell variable left unset`));
    }
  });

  it('check: --json prints exactly the check result, with the default site keys', async () => {
    const r = await vtr(['check', '--email', 'someone@mailinator.com', '--ip', '192.0.2.10', '--json']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ risk_level: 'suspicious', risks: ['disposable_email'], email: { disposable: true }, ip: { country_code: 'US' } });
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('check: a readable verdict without colour when not on a TTY', async () => {
    const r = await vtr(['check', '--ip', '203.0.113.7', '--phone', '(212) 664-7665', '--city', 'Berlin', '--country', 'Germany']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/\x1b\[/);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^chk_\w+\s+invalid\s+risks: tor, anonymous$/);
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual([expect.stringMatching(/^chk_/), 'outcome', 'rules', 'session', 'device', 'ip', 'email', 'phone', 'address']);
    expect(r.stdout).toMatch(/outcome\s+blocked \(invalid traffic\) · review/);
    expect(r.stdout).toMatch(/rules\s+anonymous \(review\)/);
    expect(r.stdout).toContain('+12126647665');
    expect(r.stdout).toMatch(/address\s+valid · Berlin, DE/);
  });

  it('check: a one-line US address in --address1 is shown once, with the country it was read in', async () => {
    const r = await vtr(['check', '--address1', '350 5th Ave, New York, NY 10118']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^address\s+valid · 350 5th Ave, New York, NY 10118, US · postal code valid$/m);
  });

  it('check: --data fixtures/check-full.json fills every section', async () => {
    const r = await vtr(['check', '--data', fileURLToPath(new URL('../../fixtures/check-full.json', import.meta.url)), '--json']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({
      risk_level: 'suspicious',
      risks: expect.arrayContaining(['hosting', 'anonymous', 'disposable_email']),
      ip: { country_code: 'GB', hosting: true },
      email: { disposable: true, normalized_email: 'jane.doe@mailinator.com', name_match: true },
      phone: { valid: true, phone: '+12126647665', country_code: 'US' },
      address: { country_code: 'US', state_code: 'NY', postal_code_valid: true, in_country: true },
    });
  });

  it('check: --fail-on exits 3 at or above the threshold, after printing the verdict; 0 below it', async () => {
    const over = await vtr(['check', '--email', 'someone@mailinator.com', '--fail-on', 'suspicious', '--json']);
    expect(over.code).toBe(3);
    expect(JSON.parse(over.stdout).risk_level).toBe('suspicious');
    expect(over.stderr).toContain('vtr: risk level suspicious: reached --fail-on suspicious');
    expect(over.stderr).not.toMatch(/error/); // the outcome the script asked about, not a failure
    const under = await vtr(['check', '--email', 'someone@mailinator.com', '--fail-on', 'invalid']);
    expect(under.code).toBe(0);
    const clean = await vtr(['check', '--ip', '192.0.2.1', '--fail-on', 'unwanted']);
    expect(clean.code).toBe(0);
    const tor = await vtr(['check', '--ip', '203.0.113.1', '--fail-on', 'unwanted']);
    expect(tor.code).toBe(3);
    expect(tor.stdout).toMatch(/invalid/);
  });

  it('check: --data - reads the body from stdin, and flags override its fields', async () => {
    const body = { email: 'someone@mailinator.com', ip: '203.0.113.5', address: { city: 'Paris', country: 'FR' } };
    const r = await vtr(['check', '--data', '-', '--ip', '192.0.2.5', '--postal-code', '75001', '--json'], { input: JSON.stringify(body) });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.ip.ip).toBe('192.0.2.5');
    expect(result.email.email).toBe('someone@mailinator.com');
    expect(result.address).toMatchObject({ city: 'Paris', country_code: 'FR', postal_code: '75001', postal_code_valid: true });
  });

  it('check: --data <file>, and a secret_key in it is used', async () => {
    const file = join(tempDir(), 'body.json');
    writeFileSync(file, JSON.stringify({ secret_key: server.site!.secret_key, phone: '+44 20 7946 0958' }));
    const r = await vtr(['check', '--data', file, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).phone).toMatchObject({ phone: '+442079460958', country_code: 'GB' });
    writeFileSync(file, JSON.stringify({ secret_key: 'sk_test_wrong' }));
    const wrong = await vtr(['check', '--data', file]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/unauthorized/);
  });

  it('check: a secret_key in --data that is not a key (a number, "") is an error naming it in the file, not a check with the default key', async () => {
    const file = join(tempDir(), 'body.json');
    for (const key of [5, '', null]) {
      writeFileSync(file, JSON.stringify({ secret_key: key, ip: '192.0.2.1' }));
      const r = await vtr(['check', '--data', file, '--json']);
      expect(r.code, String(key)).toBe(1);
      expect(r.stdout, String(key)).toBe('');
      expect(r.stderr, String(key)).toBe(`vtr: error: --data ${file}: secret_key must be a site's secret key (a string, sk_...), not ${JSON.stringify(key)}; fix it, or remove it to use the default site's key\n`);
    }
    const overridden = await vtr(['check', '--data', file, '--secret-key', server.site!.secret_key, '--json']);
    expect(overridden.code).toBe(0);
  });

  it('check: --data with no check field (a state export, "ip_address") says which fields the API ignored, instead of nothing', async () => {
    const file = join(tempDir(), 'body.json');
    writeFileSync(file, JSON.stringify({ ip_address: '192.0.2.1', mail: 'a@example.com' }));
    const r = await vtr(['check', '--data', file, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`Nothing was given to check: the fields of --data ${file} (ip_address, mail) are not check fields, and the API ignores them; give ip, email, phone, probe_id or address (vtr check --help)\n`);
  });

  it('check: --site picks the site over a secret_key in --data, as --secret-key does; an unknown one is refused', async () => {
    const file = join(tempDir(), 'body.json');
    writeFileSync(file, JSON.stringify({ secret_key: server.site!.secret_key, ip: '203.0.113.7' }));
    const other = JSON.parse((await vtr(['sites', 'create', '--name', 'Allows Tor', '--ip-allowlist', '203.0.113.0/24', '--json'])).stdout).site_id;
    const onOther = await vtr(['check', '--data', file, '--site', other, '--json']);
    expect(onOther.code).toBe(0);
    expect(JSON.parse(onOther.stdout).outcome).toBe('allowed');
    expect(JSON.parse((await vtr(['check', '--data', file, '--json'])).stdout).outcome).toBe('blocked');
    const unknown = await vtr(['check', '--data', file, '--site', 'site_nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--site: site site_nope not found');
  });

  it('check: a custom rule that matched is shown by its name (and id); --json keeps the API answer', async () => {
    const site = JSON.parse((await vtr(['sites', 'create', '--name', 'Rules by name', '--json'])).stdout).site_id;
    const rule = JSON.parse((await vtr(['rules', 'create', '--name', 'No Germany', '--filter', 'country_code in (DE)', '--action', 'block', '--site', site, '--json'])).stdout);
    const r = await vtr(['check', '--ip', '203.0.113.7', '--site', site]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^rules +anonymous \\(review\\), No Germany \\(block, ${rule.rule_id}\\)$`, 'm'));
    const json = JSON.parse((await vtr(['check', '--ip', '203.0.113.7', '--site', site, '--json'])).stdout);
    expect(json.rules).toContainEqual({ id: rule.rule_id, type: 'custom', name: 'No Germany', action: 'block' });
  });

  it('check: --external-id is sent and echoed; one over 50 characters is exit 2 naming the flag, as the API\'s 400 for a flag is', async () => {
    const r = await vtr(['check', '--ip', '192.0.2.10', '--external-id', 'order-42', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).external_id).toBe('order-42');
    const long = await vtr(['check', '--ip', '192.0.2.10', '--external-id', 'x'.repeat(51), '--json']);
    expect(long.code).toBe(2);
    expect(long.stdout).toBe('');
    expect(long.stderr).toBe('vtr: usage error: --external-id: must be at most 50 characters\n');
    expect((await vtr(['check', '--help'])).stdout).toMatch(/--external-id <id> +your own reference/);
  });

  it('check: the human output shows the external id after the session when one was sent, and no line for it otherwise', async () => {
    const sent = await vtr(['check', '--ip', '192.0.2.10', '--external-id', 'order-42']);
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/^session +none\nexternal order-42\n/m);
    expect((await vtr(['check', '--ip', '192.0.2.10'])).stdout).not.toMatch(/^external/m);
  });

  it('check: usage errors exit 2 naming the flag', async () => {
    const bad = await vtr(['check', '--fail-on', 'normal']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fail-on');
  });

  it('check: a wrong --secret-key fails with exit 1 and says how to fix it', async () => {
    const r = await vtr(['check', '--email', 'a@example.com', '--secret-key', 'sk_test_nope']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/401.*--secret-key/);
    expect(r.stdout).toBe('');
  });
});

describe('vtr testvalues', { timeout: 60_000 }, () => {
  it('testvalues: a table, and --json an array, with no server running', async () => {
    const env = { VTR_BASE_URL: 'http://127.0.0.1:9/api/v1' };
    const table = await runCli(['testvalues'], { env });
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^KIND\s+INPUT\s+EXAMPLE\s+RESULT\s+RISKS\s+LEVEL$/);
    for (const v of ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32', 'HeadlessChrome', 'Googlebot', 'mailinator.com', 'spam-referrer.test']) {
      expect(table.stdout).toContain(v);
    }
    const json = await runCli(['testvalues', '--json'], { env });
    const rows = JSON.parse(json.stdout);
    expect(Array.isArray(rows)).toBe(true);
    expect(rows.find((r: any) => r.value === '203.0.113.0/24')).toMatchObject({ kind: 'ip', risk_level: 'invalid', risks: ['tor', 'anonymous'] });
  });
});

describe('vtr sessions simulate', { timeout: 120_000 }, () => {
  it('simulate: the same seed gives the same summary; --json is one document', async () => {
    const a = await vtr(['sessions', 'simulate', '--count', '300', '--seed', '7', '--json']);
    const b = await vtr(['sessions', 'simulate', '--count', '300', '--seed', '7', '--json']);
    expect(a.code).toBe(0);
    const strip = ({ duration_ms, sessions_per_second, sample_session_ids, ...rest }: any) => rest;
    expect(strip(JSON.parse(b.stdout))).toEqual(strip(JSON.parse(a.stdout)));
    expect(JSON.parse(a.stdout)).toMatchObject({ count: 300, seed: 7 });
  });

  it('simulate: a readable summary with timing; --count is required', async () => {
    const r = await vtr(['sessions', 'simulate', '--count', '100', '--seed', 'demo']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Simulated 100 sessions/);
    expect(r.stdout).toMatch(/sessions\/s\), seed \d+/);
    for (const row of ['channel', 'risk level', 'engagement', 'device']) expect(r.stdout).toMatch(new RegExp(`^${row}\\s`, 'm'));
    expect(r.stderr).toContain('--seed');
    // On another site, the hints are commands that act on that site.
    const site = JSON.parse((await vtr(['sites', 'create', '--name', 'Sim shop', '--json'])).stdout).site_id;
    const other = await vtr(['sessions', 'simulate', '--count', '5', '--seed', '3', '--site', site]);
    expect(other.stderr).toContain(`vtr sessions simulate --count 5 --seed 3 --site ${site}`);
    const look = /Look at one: (vtr session get \S+ --site \S+)/.exec(other.stderr);
    expect(look?.[1]).toBeTruthy();
    expect((await vtr([...look![1].split(' ').slice(1), '--json'])).code).toBe(0);
    const missing = await vtr(['sessions', 'simulate']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--count');
  });

  it('simulate: an unknown --site is refused before anything says the simulation started', async () => {
    const r = await vtr(['sessions', 'simulate', '--count', '5', '--site', 'site_nope']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('vtr: error: --site: site site_nope not found (HTTP 404, not_found); see `vtr sites list`\n');
    expect(r.stdout).toBe('');
  });
});
