import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { buildClient, checkBaseUrl, isLocal } from '../../src/cli/credentials.js';
import { resolveConfig, type GlobalOptions } from '../../src/cli/context.js';
import { UsageError } from '../../src/cli/errors.js';

const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdinIsTTY: false } as never;
const config = (g: GlobalOptions, env: NodeJS.ProcessEnv = {}) => resolveConfig(g, env, io);

describe('cli: credentials', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator();
  });
  afterAll(async () => {
    await emu.close();
  });

  it('buildClient: a check on --site uses that site\'s secret key and adds no access token to it', async () => {
    const site = await emu.client.admin<{ site_id: string }>('POST', '/sites', { body: { name: 'other' } });
    const client = await buildClient(config({ baseUrl: emu.baseUrl, site: site.site_id }), { secretKey: true });
    const keys = await emu.client.admin<{ secret_key: string }>('GET', `/sites/${site.site_id}`);
    await expect(client.check({ ip: '192.0.2.1' })).resolves.toMatchObject({ risk_level: 'normal' });
    expect(keys.secret_key).not.toBe(emu.site.secretKey);
    expect(await emu.client.admin('GET', `/sites/${site.site_id}/tokens`)).toEqual([]);
  });

  it('buildClient: session commands on a site without a live access token read with its secret key and make no token', async () => {
    const site = await emu.client.admin<{ site_id: string }>('POST', '/sites', { body: { name: 'tokenless' } });
    const made = await emu.client.admin<{ session_id: string }>('POST', `/sites/${site.site_id}/sessions`, { body: { ip: '192.0.2.1' } });
    const client = await buildClient(config({ baseUrl: emu.baseUrl, site: site.site_id }), { token: true });
    await expect(client.api('GET', `/session/${made.session_id}`)).resolves.toMatchObject({ session_id: made.session_id });
    expect(await emu.client.admin('GET', `/sites/${site.site_id}/tokens`)).toEqual([]);
  });

  it('buildClient: a session command on a remote base URL without credentials names both that would do, the token and the secret key', async () => {
    const err = await buildClient(config({ baseUrl: 'https://vtr.example.com/api/v1' }), { token: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe('--token (or VTR_ACCESS_TOKEN) or --secret-key (or VTR_SECRET_KEY) is required for a remote base URL');
    const check = await buildClient(config({ baseUrl: 'https://vtr.example.com/api/v1' }), { secretKey: true }).catch((e: unknown) => e);
    expect((check as Error).message).toBe('--secret-key (or VTR_SECRET_KEY) is required for a remote base URL');
  });

  it('buildClient: an unknown --site is an error even with the keys given', async () => {
    await expect(buildClient(config({ baseUrl: emu.baseUrl, site: 'site_nope', secretKey: 'sk_test_x' }), { secretKey: true }))
      .rejects.toThrow('site site_nope not found');
  });

  it('buildClient: a remote base URL with the keys given needs nothing more, whatever --site or VTR_SITE says', async () => {
    const remote = 'https://vtr.example.com/api/v1';
    await expect(buildClient(config({ baseUrl: remote, site: 'site_1', secretKey: 'sk_test_x' }), { secretKey: true })).resolves.toBeDefined();
    await expect(buildClient(config({ baseUrl: remote, token: 'at_test_x' }, { VTR_SITE: 'site_1' }), { token: true })).resolves.toBeDefined();
    await expect(buildClient(config({ baseUrl: remote, site: 'site_1' }), { token: true })).rejects.toThrow(/--token \(or VTR_ACCESS_TOKEN\) or --secret-key \(or VTR_SECRET_KEY\) is required/);
  });
});

describe('cli: credentials from an emulator that has an admin token', () => {
  it('buildClient: without the admin token to look the keys up, the error also names the key flag that avoids the lookup', async () => {
    const emu = await startEmulator({ adminToken: 'adm1n' });
    try {
      await expect(buildClient(config({ baseUrl: emu.baseUrl }), { secretKey: true })).rejects.toThrow(
        /^this emulator needs its admin token: .* \(HTTP 401, unauthorized\), to look up the site's keys; or give --secret-key \(or VTR_SECRET_KEY\) instead$/);
      await expect(buildClient(config({ baseUrl: emu.baseUrl }), { token: true })).rejects.toThrow(/; or give --token \(or VTR_ACCESS_TOKEN\) or --secret-key \(or VTR_SECRET_KEY\) instead$/);
      await expect(buildClient(config({ baseUrl: emu.baseUrl, secretKey: emu.site.secretKey }), { secretKey: true })).resolves.toBeDefined();
    } finally {
      await emu.close();
    }
  });
});

describe('cli: local base URLs', () => {
  it('isLocal: loopback hosts in every spelling, and nothing that only starts like one', () => {
    for (const url of ['http://127.0.0.1:8787/api/v1', 'http://LOCALHOST:8787', 'http://[::1]:8787', 'http://127.0.0.2', 'http://app.localhost:8787']) expect(isLocal(url), url).toBe(true);
    for (const url of ['http://127.example.com/api/v1', 'http://localhost.example.com', 'https://vtr.example.com', 'not a url']) expect(isLocal(url), url).toBe(false);
  });
});

describe('cli: base URL', () => {
  it('checkBaseUrl: a blank --base-url ("$URL" unset, spaces) says it is empty or blank, not that "" is not a URL', () => {
    for (const given of ['', '  ']) {
      expect(() => checkBaseUrl(config({ baseUrl: given })), JSON.stringify(given))
        .toThrow(`--base-url: must not be empty${given ? ' or blank' : ''} (a shell variable left unset?); give the API's URL, e.g. http://127.0.0.1:8787/api/v1, or leave it out for the default`);
    }
  });

  it('checkBaseUrl: a query string or fragment is a usage error naming where the URL came from and the URL to use', () => {
    const cases: Array<[string, string]> = [
      ['http://127.0.0.1:8787/api/v1?x=1', 'a query string (?x=1)'],
      ['http://127.0.0.1:8787/api/v1?', 'a query string (?)'],
      ['http://127.0.0.1:8787/api/v1#top', 'a fragment (#top)'],
      ['http://127.0.0.1:8787/api/v1/?a=b#c', 'a query string (?a=b)'],
    ];
    for (const [baseUrl, what] of cases) {
      for (const baseUrlFrom of ['--base-url', 'VTR_BASE_URL'] as const) {
        expect(() => checkBaseUrl({ baseUrl, baseUrlFrom }), baseUrl).toThrow(UsageError);
        expect(() => checkBaseUrl({ baseUrl, baseUrlFrom }), baseUrl).toThrow(`${baseUrlFrom}: "${baseUrl}" has ${what}, which a base URL cannot carry; use ${baseUrl.replace(/[?#].*$/, '')}`);
      }
    }
    expect(() => checkBaseUrl({ baseUrl: 'http://127.0.0.1:8787/api/v1/', baseUrlFrom: '--base-url' })).not.toThrow();
  });
});

describe('cli: credentials from the environment', () => {
  const env = { VTR_BASE_URL: 'http://127.0.0.1:41234/api/v1', VTR_SECRET_KEY: 'sk_test_env', VTR_ACCESS_TOKEN: 'at_test_env', VTR_ADMIN_TOKEN: 'adm', VTR_SITE: 'site_env' };

  it('resolveConfig: a --base-url naming another server gets none of the environment\'s credentials', () => {
    const c = config({ baseUrl: 'https://risk.example.com/api/v1' }, env);
    expect(c).toMatchObject({ secretKey: null, accessToken: null, adminToken: null, site: null });
  });

  it('resolveConfig: the environment\'s server, named again by --base-url (another path too), keeps them', () => {
    const c = config({ baseUrl: 'http://127.0.0.1:41234/api/v1/' }, env);
    expect(c).toMatchObject({ secretKey: 'sk_test_env', accessToken: 'at_test_env', adminToken: 'adm', site: 'site_env' });
    expect(config({}, env)).toMatchObject({ secretKey: 'sk_test_env', accessToken: 'at_test_env' });
  });

  it('resolveConfig: without VTR_BASE_URL the environment\'s keys go to whatever --base-url names', () => {
    const { VTR_BASE_URL: _, ...keys } = env;
    expect(config({ baseUrl: 'https://risk.example.com/api/v1' }, keys)).toMatchObject({ secretKey: 'sk_test_env', accessToken: 'at_test_env' });
  });
});
