// `createHandlers`' emulatorOptions: refused as startEmulator refuses its options, but naming the
// function the user called, and refused when they would be ignored or open a port.
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index.js';
import { createHandlers } from '../src/msw.js';

const BASE = 'https://risk.example.invalid/api/v1';

describe('createHandlers emulatorOptions', () => {
  it('createHandlers: emulator and emulatorOptions together are refused naming both and saying to drop one, instead of the options being ignored', async () => {
    const emu = await startEmulator({ listen: false });
    try {
      await expect(createHandlers({ baseUrl: BASE, emulator: emu, emulatorOptions: { clock: 'frozen' } })).rejects.toThrow(
        /^createHandlers: emulator and emulatorOptions: .*drop emulatorOptions/,
      );
      await expect(createHandlers({ baseUrl: BASE, emulator: emu, emulatorOptions: {} })).rejects.toThrow(TypeError);
    } finally {
      await emu.close();
    }
  });

  it('createHandlers: a wrong emulatorOptions value is refused naming createHandlers and emulatorOptions, not startEmulator', async () => {
    await expect(createHandlers({ baseUrl: BASE, emulatorOptions: { clock: 'frozn' as never } })).rejects.toThrow(
      new TypeError("createHandlers: emulatorOptions: clock: expected 'system', 'manual' or 'frozen', got \"frozn\""),
    );
    await expect(createHandlers({ baseUrl: BASE, emulatorOptions: { clok: 'frozen' } as never })).rejects.toThrow(
      /^createHandlers: emulatorOptions: unknown option "clok" \(did you mean clock\?\); the options are /,
    );
    // A string spread into an object would be read as options named "0", "1", ...
    await expect(createHandlers({ baseUrl: BASE, emulatorOptions: 'frozen' as never })).rejects.toThrow(
      /^createHandlers: emulatorOptions: expected an object of options \(or none\), got "frozen"/,
    );
  });

  it('createHandlers: emulatorOptions listen, port or host is refused, as the handlers answer in-process with no port, instead of opening one (or ignoring it)', async () => {
    for (const [name, value] of [['listen', true], ['port', 42401], ['host', '127.0.0.1']] as const) {
      await expect(createHandlers({ baseUrl: BASE, emulatorOptions: { [name]: value } as never })).rejects.toThrow(
        new RegExp(`^createHandlers: emulatorOptions: ${name}: .*no port.*drop ${name}.*startEmulator\\(\\)`),
      );
    }
  });

  it('createHandlers: moving the system clock of its emulator says to start it with emulatorOptions clock frozen, not with startEmulator', async () => {
    const vtr = await createHandlers({ baseUrl: BASE });
    try {
      await expect(vtr.emulator.clock.advance('5m')).rejects.toThrow(/createHandlers\(\{ emulatorOptions: \{ clock: 'frozen' \} \}\)/);
    } finally {
      await vtr.close();
    }
  });

  it('createHandlers: an unknown site key on the agent says its emulator makes new keys each time, not vtr serve --memory', async () => {
    const vtr = await createHandlers({ baseUrl: BASE });
    try {
      const res = await vtr.emulator.fetch('/_vtr/agent/pageview', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ site_key: 'pk_test_gone' }) });
      expect(res.status).toBe(401);
      const { message } = (await res.json()) as { message: string };
      expect(message).not.toMatch(/vtr /);
      expect(message).toMatch(/createHandlers\(\) without a db in emulatorOptions makes new keys each time.*emulator\.site\.siteKey/);
    } finally {
      await vtr.close();
    }
  });

  it('createHandlers: the base URL given alone (not in an options object) is refused saying to pass { baseUrl }, not "baseUrl: got undefined"', async () => {
    await expect(createHandlers(BASE as never)).rejects.toThrow(
      new TypeError(`createHandlers: expected options ({ baseUrl, emulator?, emulatorOptions? }), got "${BASE}": pass { baseUrl: "${BASE}" }`),
    );
    await expect(createHandlers(new URL(BASE) as never)).rejects.toThrow(/^createHandlers: expected options \(\{ baseUrl, emulator\?, emulatorOptions\? \}\), got a URL: pass \{ baseUrl: "https:/);
  });
});
