import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/context.js';
import { run } from '../../../src/cli/commands/check/check.js';
import { tempDir } from '../../helpers/vtr-process.js';

/** A context whose client records the body `vtr check` sends. */
function recording(): { ctx: CliContext; sent: Array<Record<string, unknown>> } {
  const sent: Array<Record<string, unknown>> = [];
  const client = {
    check: async (body: Record<string, unknown>) => {
      sent.push(body);
      return { id: 'chk_1', created_at: '2026-11-21T09:14:03.123456', session_id: null, risk_level: 'normal', risks: [], outcome: 'neutral', review: false, rules: [], external_id: null, device: null, ip: null, email: null, phone: null, address: null };
    },
  };
  const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdinIsTTY: false };
  const ctx = { io, config: { json: true, quiet: true }, interactive: false, client: async () => client, info: () => {} } as unknown as CliContext;
  return { ctx, sent };
}

describe('vtr check --data', () => {
  it('check: a --data file that starts with a byte order mark (as Windows editors save UTF-8) is read as JSON', async () => {
    const file = join(tempDir('vtr-check-'), 'body.json');
    writeFileSync(file, `\ufeff${JSON.stringify({ email: 'someone@example.com', external_id: 7 })}`);
    const { ctx, sent } = recording();
    await run({ data: file }, ctx);
    expect(sent).toEqual([{ email: 'someone@example.com', external_id: 7 }]);
  });

  it('check: a number in --data too large for a double (1e400) is a usage error naming it, not a field sent as null', async () => {
    const file = join(tempDir('vtr-check-'), 'body.json');
    writeFileSync(file, '{"email":"someone@example.com","address":{"lines":[1, -1e400]}}');
    const { ctx, sent } = recording();
    await expect(run({ data: file }, ctx)).rejects.toThrow('--data: address.lines[1]: the number is too large');
    writeFileSync(file, '{"external_id":1e400}');
    await expect(run({ data: file }, ctx)).rejects.toThrow('--data: external_id: the number is too large');
    expect(sent).toEqual([]);
  });
});
