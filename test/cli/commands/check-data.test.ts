import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/context.js';
import { run } from '../../../src/cli/commands/check/check.js';
import { tempDir } from '../../helpers/vtr-process.js';
import { ApiError } from '../../../src/client/api-client.js';
import { OperationError, UsageError } from '../../../src/cli/errors.js';

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

  it('check: a --data file saved as UTF-16 with its byte order mark (Notepad\'s "Unicode", PowerShell 5\'s >) is read as JSON', async () => {
    const dir = tempDir('vtr-check-');
    const body = { email: 'zoë@example.com', name: 'Zoë' };
    const le = join(dir, 'le.json');
    writeFileSync(le, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(body), 'utf16le')]));
    const be = join(dir, 'be.json');
    writeFileSync(be, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(JSON.stringify(body), 'utf16le').swap16()]));
    const { ctx, sent } = recording();
    await run({ data: le }, ctx);
    await run({ data: be }, ctx);
    expect(sent).toEqual([body, body]);
  });

  it('check: a number in --data too large for a double (1e400) fails naming it and the file (exit 1), not a field sent as null', async () => {
    const file = join(tempDir('vtr-check-'), 'body.json');
    writeFileSync(file, '{"email":"someone@example.com","address":{"lines":[1, -1e400]}}');
    const { ctx, sent } = recording();
    await expect(run({ data: file }, ctx)).rejects.toThrow(new OperationError(`--data ${file}: address.lines[1]: the number is too large`));
    writeFileSync(file, '{"external_id":1e400}');
    await expect(run({ data: file }, ctx)).rejects.toThrow(new OperationError(`--data ${file}: external_id: the number is too large`));
    expect(sent).toEqual([]);
  });

  it('check: an unknown secret_key from the --data file is named as that file\'s, not as --secret-key', async () => {
    const file = join(tempDir('vtr-check-'), 'body.json');
    writeFileSync(file, JSON.stringify({ ip: '192.0.2.1', secret_key: 'sk_test_bogus' }));
    const unknown = new ApiError(401, 'unauthorized', 'the secret key is unknown (rotated?); see `vtr keys show`');
    const client = { check: async () => Promise.reject(unknown) };
    const ctx = { io: {}, config: { json: true, quiet: true, secretKey: null }, interactive: false, client: async () => client, info: () => {} } as unknown as CliContext;
    const err = await run({ data: file }, ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperationError);
    expect((err as Error).message).toBe(`the secret key is unknown (rotated?); see \`vtr keys show\` (HTTP 401, unauthorized). Check secret_key in ${file} (--data); --secret-key or VTR_SECRET_KEY, when given, is sent instead of it.`);
    // A key given by --secret-key / VTR_SECRET_KEY is sent instead of the file's: its error stays as it is.
    const withFlag = { ...ctx, config: { ...ctx.config, secretKey: 'sk_test_flag' } } as CliContext;
    await expect(run({ data: file }, withFlag)).rejects.toBe(unknown);
  });

  it('check: a 400 about a field of the --data file names the file, as its other errors do', async () => {
    const file = join(tempDir('vtr-check-'), 'body.json');
    writeFileSync(file, JSON.stringify({ ip: 5, address: { city: 7 } }));
    const bad = (field: string) => new ApiError(400, 'invalid_request', `${field}: expected a string`, { field });
    const failing = (field: string) => {
      const client = { check: async () => Promise.reject(bad(field)) };
      return { io: {}, config: { json: true, quiet: true, secretKey: null }, interactive: false, client: async () => client, info: () => {} } as unknown as CliContext;
    };
    const err = await run({ data: file }, failing('ip')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperationError);
    expect((err as Error).message).toBe(`--data ${file}: ip: expected a string (HTTP 400, invalid_request)`);
    const nested = await run({ data: file, ip: '192.0.2.1' }, failing('address.city')).catch((e: unknown) => e);
    expect((nested as Error).message).toBe(`--data ${file}: address.city: expected a string (HTTP 400, invalid_request)`);
    // A field a flag set is the flag's (run-command's asUsageError names it), not the file's.
    const flagged = await run({ data: file, ip: '192.0.2.1' }, failing('ip')).catch((e: unknown) => e);
    expect(flagged).toBeInstanceOf(ApiError);
  });

  it('check: a flag given empty or blank (--ip "$IP" with IP unset) is a usage error naming it, before anything is sent', async () => {
    const { ctx, sent } = recording();
    await expect(run({ ip: '' }, ctx)).rejects.toThrow(new UsageError('--ip: must not be empty (a shell variable left unset?); leave it out to send no ip, or put "" in --data to send it empty'));
    await expect(run({ email: 'a@example.com', postalCode: '  ' }, ctx)).rejects.toThrow(new UsageError('--postal-code: must not be empty or blank (a shell variable left unset?); leave it out to send no postal_code, or put "" in --data to send it empty'));
    await expect(run({ probeId: '' }, ctx)).rejects.toThrow(UsageError);
    expect(sent).toEqual([]);
  });

  it('check: --external-id sets external_id, as typed (a string), over the one in --data; without it the file\'s is sent', async () => {
    const file = join(tempDir('vtr-check-'), 'body.json');
    writeFileSync(file, JSON.stringify({ ip: '192.0.2.1', external_id: 7 }));
    const { ctx, sent } = recording();
    await run({ data: file, externalId: '007' } as Parameters<typeof run>[0], ctx);
    await run({ data: file }, ctx);
    await run({ externalId: 'order-42' } as Parameters<typeof run>[0], ctx);
    expect(sent).toEqual([{ ip: '192.0.2.1', external_id: '007' }, { ip: '192.0.2.1', external_id: 7 }, { external_id: 'order-42' }]);
    await expect(run({ externalId: ' ' } as Parameters<typeof run>[0], ctx)).rejects.toThrow(new UsageError('--external-id: must not be empty or blank (a shell variable left unset?); leave it out to send no external_id, or put "" in --data to send it empty'));
  });
});
