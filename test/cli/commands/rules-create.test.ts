// `vtr rules create` run in-process against the app: what it asks on a terminal.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../../src/client/api-client.js';
import type { CliContext, Prompter } from '../../../src/cli/context.js';
import { run as create } from '../../../src/cli/commands/rules/create.js';
import { harness, type Harness } from '../../helpers/emulator.js';

let h: Harness;
beforeAll(() => {
  h = harness();
});
afterAll(() => h?.close());

function context(prompter: Prompter): CliContext {
  const client = createApiClient({ baseUrl: 'http://localhost/api/v1', fetch: (req) => Promise.resolve(h.emulator.app.request(req)) });
  const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdinIsTTY: true };
  return { io, config: { json: true, quiet: true }, interactive: true, prompter, client: async () => client, info: () => {} } as unknown as CliContext;
}

describe('vtr rules create', () => {
  it('rules create: the --action prompt starts on review, so Enter alone never makes a rule that allows everything it matches', async () => {
    const select = vi.fn(async <T extends string>(_m: string, _c: T[], opts?: { default?: T }) => opts?.default ?? _c[0]!);
    const prompter = { input: vi.fn(), confirm: vi.fn(), select } as unknown as Prompter;
    await create({ site: h.site.site_id, name: 'Paris', filter: 'city = Paris' }, context(prompter));
    expect(select).toHaveBeenCalledTimes(1);
    expect(select.mock.calls[0]![2]).toEqual({ default: 'review' });
    const made = h.emulator.deps.rules!.list(h.site.site_id).find((r) => r.name === 'Paris');
    expect(made?.action).toBe('review');
  });
});
