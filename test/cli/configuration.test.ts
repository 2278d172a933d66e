import { describe, expect, it } from 'vitest';
import { resolveConfig, DEFAULT_BASE_URL } from '../../src/cli/context.js';
import { parseServeOptions, type ServeOptions } from '../../src/cli/commands/serve/serve.js';
import { siteBody } from '../../src/cli/commands/sites/site-input.js';
import { UsageError } from '../../src/cli/errors.js';

describe('cli: configuration', () => {
  const io = { stdout: { isTTY: true } as never, stderr: process.stderr, stdinIsTTY: false };

  it('resolveConfig: flag beats environment beats default', () => {
    const env = { VTR_BASE_URL: 'http://127.0.0.1:9999/api/v1', VTR_ACCESS_TOKEN: 'env-token', VTR_SECRET_KEY: 'env-sk', VTR_ADMIN_TOKEN: 'env-admin' };
    expect(resolveConfig({}, {}, io)).toMatchObject({ baseUrl: DEFAULT_BASE_URL, accessToken: null, secretKey: null, adminToken: null });
    expect(resolveConfig({}, env, io)).toMatchObject({ baseUrl: env.VTR_BASE_URL, accessToken: 'env-token', secretKey: 'env-sk', adminToken: 'env-admin' });
    expect(resolveConfig({ baseUrl: 'http://localhost:1/api/v1', token: 'flag-token', secretKey: 'flag-sk', adminToken: 'flag-admin' }, env, io))
      .toMatchObject({ baseUrl: 'http://localhost:1/api/v1', accessToken: 'flag-token', secretKey: 'flag-sk', adminToken: 'flag-admin' });
  });

  it('resolveConfig: spaces around --base-url / VTR_BASE_URL (a pasted value, a .env line) are not part of the URL', () => {
    expect(resolveConfig({}, { VTR_BASE_URL: ' http://127.0.0.1:9999/api/v1 ' }, io)).toMatchObject({ baseUrl: 'http://127.0.0.1:9999/api/v1', baseUrlFrom: 'VTR_BASE_URL' });
    expect(resolveConfig({ baseUrl: 'http://127.0.0.1:9998/api/v1 ' }, {}, io)).toMatchObject({ baseUrl: 'http://127.0.0.1:9998/api/v1', baseUrlFrom: '--base-url' });
    // Only spaces counts as unset, as an empty value does.
    expect(resolveConfig({}, { VTR_BASE_URL: '  ' }, io)).toMatchObject({ baseUrl: DEFAULT_BASE_URL, baseUrlFrom: '--base-url' });
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

  it('parseServeOptions: loopback hosts as users write them need no admin token (brackets, any case of localhost)', () => {
    expect(parseServeOptions({ ...serveDefaults, host: '[::1]' }, {}).host).toBe('::1');
    expect(parseServeOptions({ ...serveDefaults, host: 'LOCALHOST' }, {}).host).toBe('LOCALHOST');
    expect(parseServeOptions({ ...serveDefaults, host: '127.1.2.3' }, {}).host).toBe('127.1.2.3');
    expect(parseServeOptions({ ...serveDefaults, host: '[::]', adminToken: 't' }, {}).host).toBe('::');
    expect(() => parseServeOptions({ ...serveDefaults, host: '[::]' }, {})).toThrow(/--admin-token/);
  });

  it('parseServeOptions: an empty --host (an unset variable) is a usage error naming the flag', () => {
    for (const host of ['', ' ']) expect(() => parseServeOptions({ ...serveDefaults, host }, { VTR_ADMIN_TOKEN: 't' })).toThrow(/^--host: give an address to listen on/);
  });

  it('parseServeOptions: a --host with a port or a scheme says to give the address alone, and the port with --port', () => {
    const cases: Array<[string, string]> = [
      ['127.0.0.1:8080', '--host 127.0.0.1:8080: give the address alone and the port with --port, e.g. --host 127.0.0.1 --port 8080'],
      ['localhost:9000', '--host localhost:9000: give the address alone and the port with --port, e.g. --host localhost --port 9000'],
      ['[::1]:8080', '--host [::1]:8080: give the address alone and the port with --port, e.g. --host ::1 --port 8080'],
      ['http://127.0.0.1', '--host http://127.0.0.1: give an address or name, not a URL, e.g. --host 127.0.0.1'],
      ['http://localhost:8080/', '--host http://localhost:8080/: give an address or name, not a URL, e.g. --host localhost --port 8080'],
    ];
    // The same answer with an admin token: the address is wrong, not the missing token.
    for (const [host, message] of cases) {
      for (const adminToken of [undefined, 't']) expect(() => parseServeOptions({ ...serveDefaults, host, adminToken }, {}), host).toThrow(new UsageError(message));
    }
    for (const host of ['::1', 'fe80::1', '::']) expect(parseServeOptions({ ...serveDefaults, host, adminToken: 't' }, {}).host).toBe(host);
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

  it('parseServeOptions: --rate-limit takes digits only, as every numeric flag does (0x10 is not 16)', () => {
    for (const rateLimit of ['0x10', '1e2', '10.5', '', ' ']) {
      expect(() => parseServeOptions({ ...serveDefaults, rateLimit }, {}), JSON.stringify(rateLimit)).toThrow(/^--rate-limit: ".*" is not a whole number of requests per second from 1, e\.g\. 100/);
    }
    expect(parseServeOptions({ ...serveDefaults, rateLimit: '100' }, {}).rateLimit).toBe(100);
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
