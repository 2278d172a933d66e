// A flag's value left out by an unquoted, unset variable (`--email $EMAIL --yes`): the next flag is
// not taken as the value; the usage error names the flag that lost it. Refused before anything is sent.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/vtr-process.js';

// Nothing listens here: a command that got as far as sending would fail with exit 1, not 2.
const env = { VTR_BASE_URL: 'http://127.0.0.1:9/api/v1' };

describe('flag values that are flags', { timeout: 60_000 }, () => {
  it('check, views create, sessions create: a flag given another flag as its value is exit 2 naming both', async () => {
    const cases: Array<[string[], string, string]> = [
      [['check', '--email', '--yes'], '--email', '--yes'],
      [['check', '--email', '--ip', '192.0.2.1'], '--email', '--ip'],
      [['views', 'create', '--name', '--filter', 'risk_level = invalid'], '--name', '--filter'],
      [['sessions', 'create', '--event', '--ip', '192.0.2.1'], '--event', '--ip'],
      [['check', '--ip', '--email=a@example.com'], '--ip', '--email=a@example.com'],
    ];
    for (const [args, flag, value] of cases) {
      const r = await runCli(args, { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toBe(`vtr: usage error: ${flag}: got the flag ${value} as its value (a shell variable left unset?); give ${flag} a value, quoted ("$VAR"), or leave it out\n`);
    }
  });

  it('check: a value that only starts with a dash is still a value', async () => {
    const r = await runCli(['check', '--name', '-Ann-', '--ip', '192.0.2.1'], { env });
    expect(r.code).toBe(1); // sent: nothing listens there
    expect(r.stderr).toContain('cannot reach');
  });
});
