// A helper given a promise where its answer was meant (an await left out before sessions.create):
// the refusal says so, not only "got a Promise" nor "pass a plain object".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';

describe('library helpers given a promise', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ listen: false });
  });
  afterAll(() => emu?.close());

  it('sessions.get: a promise for the id is refused asking whether an await is missing', async () => {
    const id = emu.sessions.create({ ip: '198.51.100.4' }).then((s) => s.session_id);
    await expect(emu.sessions.get(id as never)).rejects.toThrow(new TypeError('sessions.get: sessionId: expected a session id, got a Promise (an await left out?)'));
    await expect(emu.events.add(id as never, 'signup')).rejects.toThrow(/^events\.add: sessionId: expected a session id, got a Promise \(an await left out\?\)$/);
    await expect(emu.webhooks.waitFor({ sessionId: id as never })).rejects.toThrow(/^webhooks\.waitFor: sessionId: expected a session id, got a Promise \(an await left out\?\)$/);
  });

  it('check and the create helpers: a promise for the fields is refused asking whether an await is missing, not "pass a plain object"', async () => {
    const fields = Promise.resolve({ ip: '198.51.100.4' });
    await expect(emu.check(fields as never)).rejects.toThrow(/^check: expected the check's fields \(\{ ip, email, \.\.\. \}\), got a Promise \(an await left out\?\)$/);
    await expect(emu.sessions.create(fields as never)).rejects.toThrow(/^sessions\.create: .*got a Promise \(an await left out\?\)$/);
    await expect(emu.webhooks.events(Promise.resolve({}) as never)).rejects.toThrow(/^webhooks\.events: .*got a Promise \(an await left out\?\)$/);
  });

  it('webhooks.create and sessions.list: a promise (or a Map) is refused, not sent as "{}" and read as no url or no filter', async () => {
    const url = Promise.resolve('http://127.0.0.1:9/hook');
    await expect(emu.webhooks.create(url as never)).rejects.toThrow(new TypeError('webhooks.create: expected a URL (a string or URL) or { url }, got a Promise (an await left out?)'));
    await expect(emu.webhooks.create(new Map([['url', 'http://127.0.0.1:9/hook']]) as never)).rejects.toThrow(/^webhooks\.create: .*got a Map: pass a plain object$/);
    await expect(emu.sessions.list(Promise.resolve('risk_level = invalid') as never)).rejects.toThrow(/^sessions\.list: expected a filter string or \{ where, limit \}, got a Promise \(an await left out\?\)$/);
    expect(await emu.webhooks.events()).toEqual([]);
  });
});
