import { describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import { createContext } from '../../src/cli/run-command.js';
import type { CliIO } from '../../src/cli/context.js';

const prompts = vi.hoisted(() => ({
  input: vi.fn(async () => 'typed'),
  confirm: vi.fn(async () => true),
  select: vi.fn(async () => 'a'),
}));
vi.mock('@inquirer/prompts', () => prompts);

function ttyIO(tty: boolean): CliIO {
  const stdout = Object.assign(new PassThrough(), { isTTY: tty });
  const stderr = Object.assign(new PassThrough(), { isTTY: tty });
  return { stdout, stderr, stdinIsTTY: tty };
}

describe('cli: context', () => {
  it('context: --json on a terminal is still interactive (--json governs stdout only)', () => {
    expect(createContext({ json: true }, ttyIO(true), {}).interactive).toBe(true);
    expect(createContext({}, ttyIO(true), {}).interactive).toBe(true);
    expect(createContext({ json: true }, ttyIO(false), {}).interactive).toBe(false);
    expect(createContext({ json: true }, ttyIO(true), { CI: '1' }).interactive).toBe(false);
  });

  it('context: prompts write to stderr, never stdout', async () => {
    const io = ttyIO(true);
    const ctx = createContext({ json: true }, io, {});
    await ctx.prompter.input('name?');
    await ctx.prompter.confirm('sure?');
    await ctx.prompter.select('which?', ['a', 'b']);
    for (const fn of [prompts.input, prompts.confirm, prompts.select]) {
      expect(fn).toHaveBeenCalledTimes(1);
      expect((fn.mock.calls[0] as unknown[])[1]).toMatchObject({ output: io.stderr });
    }
  });

  it('context: a select prompt starts on the default it is given', async () => {
    const ctx = createContext({}, ttyIO(true), {});
    prompts.select.mockClear();
    await ctx.prompter.select('which?', ['a', 'b'], { default: 'b' });
    expect((prompts.select.mock.calls[0] as unknown[])[0]).toMatchObject({ default: 'b' });
  });

  it('context: without a terminal a confirmation is refused with a hint to pass --yes', async () => {
    const ctx = createContext({ json: true }, ttyIO(false), {});
    await expect(ctx.prompter.confirm('sure?')).rejects.toThrow(/--yes/);
  });
});
