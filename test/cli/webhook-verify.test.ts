import { describe, expect, it } from 'vitest';
import { createVerifier } from '../../src/cli/commands/webhooks/verify.js';
import { newId } from '../../src/domain/ids.js';
import { deliveryHeaders } from '../../src/webhooks/signer.js';

describe('webhooks receive: signature verdict', () => {
  const secret = newId.webhookSecret();
  const body = '{"attempt":1}';
  const now = Math.floor(Date.now() / 1000);

  it('receive: a delivery signed with the secret is valid', async () => {
    const v = await createVerifier(secret);
    expect(v.verify(body, deliveryHeaders(secret, 'msg_1', now, body))).toEqual({ signature: 'valid', error: null, warning: null });
  });

  it('receive: another secret or a changed body is invalid', async () => {
    const v = await createVerifier(secret);
    expect(v.verify(body, deliveryHeaders(newId.webhookSecret(), 'msg_1', now, body)).signature).toBe('invalid');
    expect(v.verify('{"attempt":2}', deliveryHeaders(secret, 'msg_1', now, body)).signature).toBe('invalid');
  });

  it('receive: a timestamp days ahead of real time is invalid, and says it is too new', async () => {
    const v = await createVerifier(secret);
    const r = v.verify(body, deliveryHeaders(secret, 'msg_1', now + 3 * 86_400, body));
    expect(r.signature).toBe('invalid');
    expect(r.error).toMatch(/too new: \d+s after .*±300s.*signature itself matches/);
  });

  it('receive: a timestamp ten minutes old is invalid, and says it is too old', async () => {
    const v = await createVerifier(secret);
    expect(v.verify(body, deliveryHeaders(secret, 'msg_1', now - 600, body)).error).toMatch(/too old: \d+s before/);
  });

  it('receive: missing headers are named', async () => {
    const v = await createVerifier(secret);
    const { 'webhook-signature': _, 'webhook-id': __, ...rest } = deliveryHeaders(secret, 'msg_1', now, body);
    expect(v.verify(body, rest)).toEqual({ signature: 'invalid', error: 'missing headers: webhook-id, webhook-signature', warning: null });
  });

  it('receive: a wrong secret is a bad signature, also when the timestamp is off', async () => {
    const v = await createVerifier(secret);
    expect(v.verify(body, deliveryHeaders(newId.webhookSecret(), 'msg_1', now, body)).error).toMatch(/^bad signature: no v1 signature matches this secret/);
    const r = v.verify(body, deliveryHeaders(newId.webhookSecret(), 'msg_1', now + 10 * 86_400, body));
    expect(r.error).toMatch(/too new.*no signature matches this secret either/);
  });

  it('receive: a malformed secret is refused up front', async () => {
    await expect(createVerifier('whsec_%%%')).rejects.toThrow();
  });
});
