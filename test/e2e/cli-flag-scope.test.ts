// Global flags on the built binary mean what they say, or are refused: --site where a command has no
// site to pick, --limit that cut a listing, credential flags against the environment's.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { scratchDir, suiteServer, vtr, vtrJson } from '../helpers/foundation-e2e.js';

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

  it('--site with --all: tokens list and webhooks list refuse the pair, as sessions list --all-sites does', async () => {
    for (const args of [['tokens', 'list', '--all'], ['webhooks', 'list', '--all']]) {
      const r = await vtr([...args, '--site', suite.server.site!.site_id], suite.server.env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/--all lists every site, --site one: give only one of them/);
    }
  });
});
