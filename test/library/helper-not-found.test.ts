// A helper given a session id that does not exist: the API's 404, saying the helper and the id.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiError, startEmulator, type RunningEmulator } from '../../src/index.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ listen: false });
});
afterAll(() => emu?.close());

it('sessions.get: a session that does not exist rejects with the 404 naming the helper and the id, not a bare "session not found"', async () => {
  const err = await emu.sessions.get('ses_nope').catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect(err).toMatchObject({ status: 404, code: 'not_found', message: 'sessions.get: session ses_nope not found' });
});

it('events.add: a session that does not exist rejects with the 404 naming the helper and the id, not a bare "session not found"', async () => {
  const err = await emu.events.add('ses_nope', 'signup').catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect(err).toMatchObject({ status: 404, code: 'not_found', message: 'events.add: session ses_nope not found' });
});

it('rules.update: a rule that does not exist rejects with the 404 naming the helper and the rule, as sessions.get does', async () => {
  const err = await emu.rules.update('rule_nope', { enabled: false }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect(err).toMatchObject({ status: 404, code: 'not_found', message: 'rules.update: rule rule_nope not found' });
});

it('helpers: every helper\'s API error names the helper, and stays the API\'s ApiError (status, code, body)', async () => {
  const cases: [string, () => Promise<unknown>, number][] = [
    ['sessions.create', () => emu.sessions.create({ url: 5 } as never), 400],
    ['sessions.list', () => emu.sessions.list('nope ==='), 400],
    ['check', () => emu.check({ ip: 5 } as never), 400],
    ['views.create', () => emu.views.create({ name: '' } as never), 400],
    ['rules.create', () => emu.rules.create({} as never), 400],
    ['rules.update', () => emu.rules.update('rule_nope', { enabled: 'yes' } as never), 400],
    ['webhooks.create', () => emu.webhooks.create('not a url'), 400],
    ['events.add', async () => emu.events.add((await emu.sessions.create({})).session_id, ''), 400],
  ];
  for (const [helper, call, status] of cases) {
    const err = await call().catch((e: unknown) => e);
    expect(err, helper).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status, helper).toBe(status);
    expect(e.message, helper).toMatch(new RegExp(`^${helper.replace('.', '\\.')}: `));
    // The API's own message follows, as its body says it.
    expect(e.message, helper).toBe(`${helper}: ${String(e.body.message)}`);
    expect(e.code, helper).toBe(e.body.code);
  }
});
