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

  it('receive: a manual clock days ahead is a valid signature with a timestamp warning', async () => {
    const v = await createVerifier(secret);
    const r = v.verify(body, deliveryHeaders(secret, 'msg_1', now + 3 * 86_400, body));
    expect(r).toMatchObject({ signature: 'valid', error: null, warning: expect.stringContaining('--clock manual') });
  });

  it('receive: a wrong secret days off real time is a wrong signature, not a timestamp problem', async () => {
    const v = await createVerifier(secret);
    const r = v.verify(body, deliveryHeaders(newId.webhookSecret(), 'msg_1', now + 10 * 86_400, body));
    expect(r).toEqual({ signature: 'invalid', error: 'No matching signature found', warning: null });
  });

  it('receive: a malformed secret is refused up front', async () => {
    await expect(createVerifier('whsec_%%%')).rejects.toThrow();
  });
});
