import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/cli/context.js';
import { ApiError, ConnectionError } from '../../src/client/api-client.js';
import { AnswerTimeout } from '../../src/client/http.js';
import { reportError } from '../../src/cli/run-command.js';

describe('cli: reporting an error', () => {
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
      // An id pasted with a space is shown quoted, so the space is seen.
      ['session " ses_x" not found', 'vtr sessions list --all-sites'],
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

  it('reportError: a webhook id given for an event (or an event id for a webhook) says which it is and the command that takes it', () => {
    const io = { stdout: process.stdout, stderr: process.stderr, stdinIsTTY: false };
    const cases: Array<[string, string]> = [
      ['webhook event wh_abc not found', 'wh_abc is a webhook id, not a webhook event id: its events are `vtr webhooks events wh_abc`'],
      ['webhook msg_abc not found', 'msg_abc is a webhook event id, not a webhook id: see `vtr webhooks event msg_abc`'],
    ];
    for (const [msg, said] of cases) {
      let err = '';
      const errIo = { ...io, stderr: { write: (s: string) => ((err += s), true) } as never };
      reportError({ io: errIo, config: resolveConfig({}, {}, errIo) }, new ApiError(404, 'not_found', msg));
      expect(err, msg).toBe(`vtr: error: ${msg} (HTTP 404, not_found); ${said}\n`);
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

  it('reportError: a 401 with the key from the environment (as `vtr exec` set it, then rotated) says so and how to get the current one', () => {
    const io = { stdout: process.stdout, stderr: process.stderr, stdinIsTTY: false };
    const env = { VTR_BASE_URL: 'http://127.0.0.1:42999/api/v1', VTR_SECRET_KEY: 'sk_test_old' };
    const cases: Array<[object, string]> = [
      [{}, 'vtr: error: the secret key is unknown (rotated?); see `vtr keys show` (HTTP 401, unauthorized). VTR_SECRET_KEY came from the environment, which a `vtr keys rotate` or `vtr tokens revoke` since it was set does not change: unset it (on a local emulator the site\'s current one is then used), or give --secret-key.\n'],
      // A flag was given: it is the one to check.
      [{ secretKey: 'sk_test_flag' }, 'vtr: error: the secret key is unknown (rotated?); see `vtr keys show` (HTTP 401, unauthorized). Check --token / --secret-key (or VTR_ACCESS_TOKEN / VTR_SECRET_KEY).\n'],
    ];
    for (const [globals, want] of cases) {
      let err = '';
      const errIo = { ...io, stderr: { write: (s: string) => ((err += s), true) } as never };
      reportError({ io: errIo, config: resolveConfig(globals, env, errIo) }, new ApiError(401, 'unauthorized', 'the secret key is unknown (rotated?); see `vtr keys show`'));
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

  it('reportError: refused on [::1] or another 127.x address says vtr serve binds 127.0.0.1 and gives the matching URL and --host', () => {
    const io = { stdout: process.stdout, stderr: process.stderr, stdinIsTTY: false };
    const refused = (addr: string) => Object.assign(new Error(`connect ECONNREFUSED ${addr}`), { code: 'ECONNREFUSED' });
    const report = (baseUrl: string, addr: string) => {
      let err = '';
      const errIo = { ...io, stderr: { write: (s: string) => ((err += s), true) } as never };
      const origin = new URL(baseUrl).origin;
      expect(reportError({ io: errIo, config: resolveConfig({}, { VTR_BASE_URL: baseUrl }, errIo) }, new ConnectionError(origin, refused(addr)))).toBe(1);
      return err;
    };
    expect(report('http://[::1]:7552/api/v1', '::1:7552')).toBe(
      'vtr: error: cannot reach the emulator at http://[::1]:7552. `vtr serve` binds 127.0.0.1 unless given --host: point --base-url / VTR_BASE_URL at http://127.0.0.1:7552/api/v1, or start it with `npx vtr serve --port 7552 --host ::1`.\n');
    expect(report('http://127.0.0.2:8787/api/v1', '127.0.0.2:8787')).toContain('at http://127.0.0.1:8787/api/v1, or start it with `npx vtr serve --host 127.0.0.2`');
    // The default address and localhost (tried on both families) keep the plain hint.
    expect(report('http://127.0.0.1:7552/api/v1', '127.0.0.1:7552')).toContain('Is it running? Start it with `npx vtr serve --port 7552`');
    expect(report('http://localhost:7552/api/v1', '127.0.0.1:7552')).toContain('Is it running? Start it with `npx vtr serve --port 7552`');
  });

  it('reportError: an https:// base URL answered in plain HTTP (a running emulator) says to use http://, not to start it', () => {
    let err = '';
    const io = { stdout: process.stdout, stderr: { write: (s: string) => ((err += s), true) } as never, stdinIsTTY: false };
    const cause = Object.assign(new Error('write EPROTO 80DC488C907F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:'), { code: 'EPROTO' });
    const config = resolveConfig({ baseUrl: 'https://127.0.0.1:7200/api/v1' }, {}, io);
    expect(reportError({ io, config }, new ConnectionError('https://127.0.0.1:7200', cause))).toBe(1);
    expect(err).toContain('answered in plain HTTP');
    expect(err).toContain('http://127.0.0.1:7200/api/v1');
    expect(err).not.toContain('npx vtr serve');
    expect(err).not.toContain('Is it running');
  });
});
