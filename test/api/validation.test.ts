// A route declared with createRoute and mounted with app.openapi refuses a request with the same
// 400 the handlers' validate() gives: {code: 'invalid_request', message: '<field>: ...', field}.
import { OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { addCustomEventRoute, checkVisitorRoute } from '../../src/api/routes.js';
import { CheckRequest } from '../../src/api/check.js';
import { CustomEventRequest } from '../../src/api/public.js';
import { defaultHook, invalidRequest, validate } from '../../src/api/validation.js';
import { VtrError } from '../../src/domain/errors.js';

function app() {
  const a = new OpenAPIHono({ defaultHook });
  a.onError((err, c) => (err instanceof VtrError ? c.json(err.toJSON(), err.status as 400) : c.json({ code: 'internal_error', message: String(err) }, 500)));
  a.openapi(addCustomEventRoute, (c) => c.json({ success: true as const, seen: { id: c.req.valid('param').id, ...c.req.valid('json') } } as never, 200));
  a.openapi(checkVisitorRoute, (c) => c.json({ body: c.req.valid('json') } as never, 200));
  return a;
}

async function post(path: string, body: unknown) {
  const res = await app().request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** What validate() says of the same value (the message the handlers give today). */
function refusal(schema: z.ZodType, value: unknown) {
  try {
    validate(schema, value);
  } catch (err) {
    return (err as VtrError).toJSON();
  }
  throw new Error('accepted');
}

describe('defaultHook', () => {
  it('defaultHook: a custom event body the route refuses is the contract 400, field named', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{}, 'name: required, a string of 1 to 100 characters', 'name'],
      [{ name: 5 }, 'name: required, a string of 1 to 100 characters', 'name'],
      [{ name: '' }, 'name: must not be empty', 'name'],
      [{ name: 'x'.repeat(101) }, 'name: must be at most 100 characters', 'name'],
      [{ name: 'x', value: '5' }, 'value: expected a number (or leave it out)', 'value'],
    ];
    for (const [body, message, field] of cases) {
      const r = await post('/api/v1/session/ses_1/event', body);
      expect(r, JSON.stringify(body)).toEqual({ status: 400, body: { code: 'invalid_request', message, field } });
      expect(refusal(CustomEventRequest, body)).toEqual(r.body);
    }
  });

  it('defaultHook: a visitor check with a wrong JSON type is the contract 400, field named', async () => {
    const cases: Array<[unknown, string]> = [
      [{ email: 5 }, 'email: expected a string'],
      [{ probe_id: true }, 'probe_id: expected a string'],
      [{ address: 'Main St 1' }, 'address: expected an object with string fields address1, address2, city, state, country, postal_code'],
      [{ address: { city: 5 } }, 'address.city: expected a string'],
      [{ secret_key: 42 }, 'secret_key: expected a string'],
    ];
    for (const [body, message] of cases) {
      const r = await post('/api/v1/event', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_request', message });
      expect(refusal(CheckRequest, body)).toEqual(r.body);
    }
  });

  it('defaultHook: a body the route accepts reaches the handler parsed; unknown check fields are ignored', async () => {
    expect(await post('/api/v1/session/ses_9/event', { name: 'signup', value: 2.5 }))
      .toEqual({ status: 200, body: { success: true, seen: { id: 'ses_9', name: 'signup', value: 2.5 } } });
    const r = await post('/api/v1/event', { secret_key: 'sk_test_x', ip: null, email: 'a@b.test', future_field: 1 });
    expect(r).toEqual({ status: 200, body: { body: { secret_key: 'sk_test_x', ip: null, email: 'a@b.test' } } });
  });
});

describe('invalidRequest', () => {
  const schema = z.strictObject({ n: z.number().min(3).optional(), tags: z.array(z.string()).min(2).optional(), own: z.string({ error: 'its own' }).optional() });
  const of = (value: unknown) => invalidRequest(schema.safeParse(value).error!).message;

  it('invalidRequest: plain words for zod defaults, the schema own message kept, other checks as zod says', () => {
    expect(of({ tags: ['a'] })).toBe('tags: must have at least 2 items');
    expect(of({ tags: 'a' })).toBe('tags: expected an array');
    expect(of({ own: 1 })).toBe('own: its own');
    expect(of({ extra: 1 })).toBe('extra: unknown field');
    expect(of({ n: 1 })).toBe('n: must be at least 3');
    expect(invalidRequest(z.object({}).safeParse(5).error!).toJSON()).toEqual({ code: 'invalid_request', message: 'body: expected an object', field: 'body' });
  });

  it('invalidRequest: a missing field is required, and a union says which types it takes', () => {
    const needs = z.strictObject({ name: z.string(), count: z.number().int(), duration: z.union([z.string(), z.number().min(0)]) });
    const said = (value: unknown) => invalidRequest(needs.safeParse(value).error!).message;
    expect(said({})).toBe('name: required, a string');
    expect(said({ name: 'a' })).toBe('count: required, a number');
    expect(said({ name: 'a', count: 1 })).toBe('duration: required, a string or a number');
    expect(said({ name: 'a', count: 1, duration: true })).toBe('duration: expected a string or a number');
    expect(said({ name: null, count: 1, duration: 1 })).toBe('name: expected a string');
  });

  it('invalidRequest: given the value, a field left out is required whatever the schema says of a wrong value', () => {
    const needs = z.strictObject({
      action: z.enum(['allow', 'block'], { error: 'must be one of allow, block' }),
      kind: z.literal('custom'),
      own: z.string({ error: 'expected text' }),
      inner: z.object({ at: z.enum(['a', 'b']) }).optional(),
    });
    const said = (value: unknown) => (refusal(needs, value) as { message: string }).message;
    expect(said({})).toBe('action: required, one of allow, block');
    expect(said({ action: 'deny' })).toBe('action: must be one of allow, block');
    expect(said({ action: 'allow' })).toBe('kind: required, custom');
    expect(said({ action: 'allow', kind: 'custom' })).toBe('own: required, a string');
    expect(said({ action: 'allow', kind: 'custom', own: 1 })).toBe('own: expected text');
    expect(said({ action: 'allow', kind: 'custom', own: 'x', inner: {} })).toBe('inner.at: required, one of a, b');
    expect(() => defaultHook({ success: false, error: needs.safeParse({}).error!, data: {} })).toThrow('action: required, one of allow, block');
    // Without the value (a bare ZodError), the schema's own message.
    expect(invalidRequest(needs.safeParse({}).error!).message).toBe('action: must be one of allow, block');
  });

  it('invalidRequest: a whole number out of its bounds names the schema bound, not the safe-integer range', () => {
    const whole = z.strictObject({ t: z.number().int().min(1).max(1_000_000) });
    const said = (t: unknown) => invalidRequest(whole.safeParse({ t }).error!).message;
    expect(said(0)).toBe('t: must be at least 1');
    expect(said(2_000_000)).toBe('t: must be at most 1000000');
    expect(said(1e300)).toBe('t: must be at most 1000000');
    expect(said(2.5)).toBe('t: expected a whole number');
    expect(said('5')).toBe('t: expected a number');
    expect(said(Infinity)).toBe('t: the number is too large');
    expect(said(-Infinity)).toBe('t: the number is too large');
    expect(invalidRequest(z.object({ p: z.number().gt(0) }).safeParse({ p: 0 }).error!).message).toBe('p: must be more than 0');
  });
});
