import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newId } from '../../src/domain/ids.js';
import { bodyFor, buildPayload } from '../../src/webhooks/payload.js';
import { deliveryHeaders, sign } from '../../src/webhooks/signer.js';
import { emptySession } from '../../src/sessions/service.js';
import { VERSION } from '../../src/version.js';

const site = { site_id: 'site_1', name: 'Shop' } as Parameters<typeof emptySession>[0];
const view = { saved_view_id: 'view_1', site_id: 'site_1', name: 'Bad', filter: 'risk_level = invalid', trigger_webhooks: true, created_at: '' };

describe('signer and payload', () => {
  it('signer: standardwebhooks verifies what we sign', () => {
    const secret = newId.webhookSecret();
    const body = JSON.stringify({ hello: 'world' });
    const ts = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders(secret, 'msg_1', ts, body);
    expect(headers['user-agent']).toBe(`vtr/${VERSION}`);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe(String(ts));
    expect(new Webhook(secret).verify(body, headers)).toEqual({ hello: 'world' });
  });

  it('signer: the signature is base64 HMAC-SHA256 of "id.timestamp.body" keyed by the decoded secret', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const expected = createHmac('sha256', Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64')).update('msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}').digest('base64');
    expect(sign(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(`v1,${expected}`);
    // The Standard Webhooks spec's own example vector.
    expect(expected).toBe('g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signer: a changed body no longer verifies', () => {
    const secret = newId.webhookSecret();
    const ts = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders(secret, 'msg_1', ts, '{"a":1}');
    expect(() => new Webhook(secret).verify('{"a":2}', headers)).toThrow();
  });

  it('payload: every Session field, the view and the metadata; only attempt changes per attempt', () => {
    const session = emptySession(site, 'ses_1', '2026-11-21T09:00:00.000000');
    const stored = JSON.stringify(buildPayload(session, view, 'wh_1', 'msg_1', '2026-11-21T09:00:01.000000'));
    const b1 = JSON.parse(bodyFor(stored, 1));
    const b2 = JSON.parse(bodyFor(stored, 2));
    for (const k of Object.keys(session)) expect(b1).toHaveProperty(k);
    expect(b1).toMatchObject({ hook_type: 'saved_view', saved_view_id: 'view_1', saved_view_name: 'Bad', webhook_id: 'wh_1', webhook_event_id: 'msg_1', attempt: 1, triggered_at: '2026-11-21T09:00:01.000000' });
    expect({ ...b2, attempt: 1 }).toEqual(b1);
  });
});
