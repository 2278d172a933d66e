import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readStdin } from '../../src/cli/file-paths.js';

const stdin = (text: string, isTTY: boolean) => Object.assign(Readable.from([Buffer.from(text)]), { isTTY });

describe('readStdin', () => {
  it('check --data -, state import -: on a terminal, says it is reading and how to end, so it does not wait silently', async () => {
    const said: string[] = [];
    const bytes = await readStdin((line) => said.push(line), stdin('{}', true));
    expect(bytes.toString()).toBe('{}');
    expect(said).toEqual(['vtr: reading JSON from stdin; end it with Ctrl-D (or give a file instead of -)']);
  });

  it('check --data -, state import -: from a pipe, says nothing', async () => {
    const said: string[] = [];
    await readStdin((line) => said.push(line), stdin('{}', false));
    expect(said).toEqual([]);
  });
});
