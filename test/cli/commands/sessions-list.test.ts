import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/context.js';
import { run } from '../../../src/cli/commands/sessions/list.js';
import { ApiError } from '../../../src/client/api-client.js';
import { UsageError } from '../../../src/cli/errors.js';
import { parseFilter } from '../../../src/domain/filter/index.js';

/** A context whose client refuses the filter as the server does, with the parser's position. */
function refusing(): CliContext {
  const client = {
    admin: async (_method: string, _path: string, o: { query: { where: string } }) => {
      try {
        parseFilter(o.query.where);
      } catch (err) {
        const e = err as { message: string; position: number };
        throw new ApiError(400, 'invalid_filter', e.message, { code: 'invalid_filter', message: e.message, position: e.position });
      }
      return [];
    },
  };
  const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdinIsTTY: false };
  return { io, config: { json: true, quiet: true }, interactive: false, client: async () => client, info: () => {} } as unknown as CliContext;
}

async function usageMessage(where: string): Promise<string> {
  const err = await run({ where, limit: '20', allSites: true }, refusing()).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(UsageError);
  return (err as Error).message;
}

describe('vtr sessions list --where: a refused filter', () => {
  it('sessions list: a filter written over several lines has the caret under the spot, on one line', async () => {
    const lines = (await usageMessage('city = a\nb')).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe('  city = a b');
    expect(lines[2]).toBe(`  ${' '.repeat('city = a\n'.length)}^`);
  });

  it('sessions list: a long filter is shown around the error, as views and rules show it, not whole', async () => {
    const where = `${'page_views > 1 or '.repeat(150)}chanel = paid`;
    const lines = (await usageMessage(where)).split('\n');
    expect(lines[0]).toContain('unknown field "chanel"');
    expect(lines[1].length).toBeLessThan(100);
    expect(lines[1]).toContain('chanel = paid');
    expect(lines[1][lines[2].indexOf('^')]).toBe('c');
  });
});
