// `vtr rules update` run in-process against the app: what it says when the server refuses a change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/client/api-client.js';
import type { CliContext } from '../../../src/cli/context.js';
import { run as update } from '../../../src/cli/commands/rules/update.js';
import { harness, type Harness } from '../../helpers/emulator.js';

let h: Harness;
beforeAll(() => {
  h = harness();
});
afterAll(() => h?.close());

function context(): CliContext {
  const client = createApiClient({ baseUrl: 'http://localhost/api/v1', fetch: (req) => Promise.resolve(h.emulator.app.request(req)) });
  const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdinIsTTY: false };
  return { io, config: { json: true, quiet: true }, interactive: false, client: async () => client, info: () => {} } as unknown as CliContext;
}

const refusal = (o: Parameters<typeof update>[0]) => update(o, context()).then(() => null, (e: unknown) => (e as Error).message);

describe('vtr rules update', () => {
  it('rules update: --filter on a smart rule says smart rules take none, whether the filter parses or not, rather than point at the filter', async () => {
    for (const filter of ['risks contains', 'risks contains vpn']) {
      const said = await refusal({ args: ['bot'], site: h.site.site_id, filter });
      expect(said, filter).toContain('the smart rule bot has a fixed condition; only custom rules take a filter');
      expect(said, filter).not.toContain('position');
    }
  });

  it('rules update: a bad --filter on a custom rule still shows where it goes wrong', async () => {
    const rule = h.emulator.deps.rules!.create(h.site.site_id, { filter: 'risks contains tor', action: 'block' });
    const said = await refusal({ args: [rule.rule_id], site: h.site.site_id, filter: 'risks contains' });
    expect(said).toContain('--filter: expected a value after "contains" at position 14');
    expect(said).toContain('^');
  });
});
