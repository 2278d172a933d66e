import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/cli/commands/webhooks/receive.js';
import { createContext } from '../../../src/cli/run-command.js';

const ANSI = /\u001b\[/;

/** `vtr webhooks receive` with stdout and stderr each on a terminal or not; a GET sent to it, then Ctrl-C. */
async function noteOnGet(stdoutTTY: boolean, stderrTTY: boolean): Promise<string> {
  const stdout = Object.assign(new PassThrough(), { isTTY: stdoutTTY });
  const stderr = Object.assign(new PassThrough(), { isTTY: stderrTTY });
  let said = '';
  stderr.on('data', (d) => (said += d));
  const ctx = createContext({}, { stdout, stderr, stdinIsTTY: false }, {});
  const running = run({ port: '0', host: '127.0.0.1' }, ctx);
  for (let i = 0; i < 100 && !/http:\/\/\S+\//.test(said); i++) await new Promise((r) => setTimeout(r, 20));
  const url = /http:\/\/\S+\//.exec(said)![0];
  expect((await fetch(url)).status).toBe(405);
  for (let i = 0; i < 100 && !said.includes('answered 405'); i++) await new Promise((r) => setTimeout(r, 20));
  process.emit('SIGINT');
  await running;
  return said;
}

describe('vtr webhooks receive', () => {
  it('webhooks receive: its stderr notes are coloured by whether stderr is a terminal, not stdout (2>file gets no escapes)', async () => {
    const toFile = await noteOnGet(true, false);
    expect(toFile).toContain('answered 405');
    expect(toFile).not.toMatch(ANSI);
    expect(await noteOnGet(false, true)).toMatch(ANSI);
  });
});
