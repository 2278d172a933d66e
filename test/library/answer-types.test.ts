// The helpers' answers as a test's editor sees them (tsc --noEmit checks this file): named types,
// and a misspelt field (camelCase, as the helpers' own options are) is an error, not `unknown`.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ listen: false, clock: 'frozen' });
});
afterAll(() => emu?.close());

it('types: a field the answer does not have is a type error, on every helper\'s answer', async () => {
  const check = await emu.check({ ip: '192.0.2.1' });
  // @ts-expect-error: the API's fields are snake_case
  expect(check.riskLevel).toBeUndefined();
  const hook = await emu.webhooks.create('http://127.0.0.1:9/hook');
  // @ts-expect-error: misspelt
  expect(hook.secrett).toBeUndefined();
  const view = await emu.views.create({ name: 'bad', filter: 'risk_level = "invalid"' });
  // @ts-expect-error: the API's fields are snake_case
  expect(view.triggerWebhooks).toBeUndefined();
  const rules = await emu.rules.list();
  // @ts-expect-error: misspelt
  expect(rules[0].enabeld).toBeUndefined();
  const events = await emu.webhooks.events();
  // @ts-expect-error: the API's fields are snake_case
  expect(events[0]?.webhookEventId).toBeUndefined();
  // Known fields keep their types.
  const level: string | null = check.risk_level;
  const secret: string = hook.secret;
  expect([typeof level, typeof secret]).toEqual(['string', 'string']);
});
