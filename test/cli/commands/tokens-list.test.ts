import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/context.js';
import { run } from '../../../src/cli/commands/tokens/list.js';

/** A context whose site has no access tokens, recording what goes to stdout and stderr. */
function noTokens(json: boolean): { ctx: CliContext; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const client = { admin: async (_method: string, path: string) => (path === '/sites/default' ? { site_id: 'site_1' } : []) };
  const io = { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) }, stdinIsTTY: false };
  const ctx = { io, config: { json, quiet: false, site: null }, interactive: false, client: async () => client, info: (l: string) => err.push(`${l}\n`) } as unknown as CliContext;
  return { ctx, out, err };
}

describe('vtr tokens list', () => {
  it('tokens list: none says so on stdout, and how to make one on stderr, as the other lists do', async () => {
    const { ctx, out, err } = noTokens(false);
    await run({}, ctx);
    expect(out.join('')).toBe('No access tokens.\n');
    expect(err.join('')).toBe('Create one: vtr tokens create\n');
  });

  it('tokens list --json: none is [] alone', async () => {
    const { ctx, out, err } = noTokens(true);
    await run({}, ctx);
    expect(out.join('')).toBe('[]\n');
    expect(err.join('')).toBe('');
  });
});
