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
    await expect(startEmulator({ dbPath: 'x.db', listen: false } as never)).rejects.toThrow(/^startEmulator: unknown option "dbPath"; the options are db, port, host, adminToken, listen, clock, /);
    await expect(startEmulator({ retrySchedual: [1, 2, 3, 4, 5], listen: false } as never)).rejects.toThrow(/unknown option "retrySchedual"/);
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
