// startEmulator's options as a JavaScript test suite passes them: from the environment, from JSON,
// misspelt. What `vtr serve` would refuse is refused, naming the option.
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/index.js';

describe('startEmulator options', () => {
  it('startEmulator: an empty or blank adminToken is refused, not an open management API', async () => {
    await expect(startEmulator({ adminToken: '', listen: false })).rejects.toThrow(/^startEmulator: adminToken: must not be empty \(an environment variable left unset\?\)/);
    await expect(startEmulator({ adminToken: '  ', listen: false })).rejects.toThrow(/^startEmulator: adminToken: must not be empty or blank/);
  });

  it('startEmulator: options that are not an object (null, a string) are refused, not read as no options or a crash', async () => {
    await expect(startEmulator(null as never)).rejects.toThrow(/^startEmulator: expected an object of options \(or none\), got null/);
    await expect(startEmulator('frozen' as never)).rejects.toThrow(/^startEmulator: expected an object of options \(or none\), got "frozen"/);
  });

  it('startEmulator: a misspelt option is refused naming it and the options there are, not ignored', async () => {
    await expect(startEmulator({ dbPath: 'x.db', listen: false } as never)).rejects.toThrow(/^startEmulator: unknown option "dbPath" \(did you mean db\?\); the options are db, port, host, adminToken, listen, clock, /);
    await expect(startEmulator({ retrySchedual: [1, 2, 3, 4, 5], listen: false } as never)).rejects.toThrow(/unknown option "retrySchedual"/);
  });

  it('startEmulator: a misspelt option, or one written as vtr serve\'s flag or in snake_case, is refused with the option likely meant', async () => {
    await expect(startEmulator({ adminTokn: 's3cret' } as never)).rejects.toThrow(/^startEmulator: unknown option "adminTokn" \(did you mean adminToken\?\); the options are /);
    await expect(startEmulator({ admin_token: 's3cret' } as never)).rejects.toThrow(/^startEmulator: unknown option "admin_token" \(did you mean adminToken\?\); /);
    await expect(startEmulator({ memory: true } as never)).rejects.toThrow(/^startEmulator: unknown option "memory"; the options are /);
  });

  it('startEmulator: a duration given as a string ("5000", from the environment) is refused showing it as a string, not "got 5000"', async () => {
    await expect(startEmulator({ webhookTimeoutMs: '5000' as never, listen: false })).rejects.toThrow(/^startEmulator: webhookTimeoutMs: expected a number of milliseconds above 0, got "5000" \(a string: use Number\(\.\.\.\)\)$/);
    await expect(startEmulator({ retryBaseMs: '10' as never, listen: false })).rejects.toThrow(/retryBaseMs: .*got "10" \(a string/);
  });

  it('startEmulator: an adminToken read from a file with its line ending is used without it, as vtr serve --admin-token uses one', async () => {
    const emu = await startEmulator({ adminToken: 'admin-secret\n' });
    try {
      await expect(emu.sessions.create({ ip: '198.51.100.4' })).resolves.toMatchObject({ session_id: expect.stringMatching(/^ses_/) });
      await expect(emu.client.admin('GET', '/sites')).resolves.toHaveLength(1);
      const res = await fetch(`${new URL(emu.baseUrl).origin}/_vtr/api/sites`, { headers: { authorization: 'Bearer admin-secret' } });
      expect(res.status).toBe(200);
    } finally {
      await emu.close();
    }
  });
});

describe('startEmulator host', () => {
  it('startEmulator: a host with its port is refused saying to pass the port as port, not taken for a remote machine', async () => {
    await expect(startEmulator({ host: '127.0.0.1:42510' })).rejects.toThrow(/^startEmulator: host: "127\.0\.0\.1:42510": give the address alone and the port as port, e\.g\. \{ host: '127\.0\.0\.1', port: 42510 \}$/);
    await expect(startEmulator({ host: 'localhost:42511', adminToken: 's3cret' })).rejects.toThrow(/^startEmulator: host: "localhost:42511": .*\{ host: 'localhost', port: 42511 \}$/);
    await expect(startEmulator({ host: '[::1]:42512' })).rejects.toThrow(/^startEmulator: host: "\[::1\]:42512": .*\{ host: '::1', port: 42512 \}$/);
  });

  it('startEmulator: a host written as a URL (a base URL) is refused naming the host and port it holds', async () => {
    await expect(startEmulator({ host: 'http://127.0.0.1:42513' })).rejects.toThrow(/^startEmulator: host: "http:\/\/127\.0\.0\.1:42513": give an address or name, not a URL, e\.g\. \{ host: '127\.0\.0\.1', port: 42513 \}$/);
    await expect(startEmulator({ host: 'http://localhost/api/v1', adminToken: 's3cret' })).rejects.toThrow(/not a URL, e\.g\. \{ host: 'localhost' \}$/);
  });

  it('startEmulator: a bare IPv6 address is a host, its last group no port', async () => {
    const emu = await startEmulator({ host: '::1', port: 0 }).catch((err: Error) => err);
    // A machine without IPv6 cannot listen there; the refusal is then about the address, not a port.
    if (emu instanceof Error) expect(emu.message).toMatch(/cannot listen there/);
    else await emu.close();
  });

  it('startEmulator: a port with listen: false is refused (nothing would listen on it), not left closed for the app to find', async () => {
    await expect(startEmulator({ port: 42530, listen: false })).rejects.toThrow(
      new TypeError('startEmulator: port: 42530 given with listen: false, which opens no port; drop port (emu.fetch and the helpers answer in-process), or drop listen: false to listen on it'),
    );
    // A port of 0 (a free one) asks for no port in particular.
    await (await startEmulator({ port: 0, listen: false })).close();
  });
});
