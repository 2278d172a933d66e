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
