import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';

/** The help text of `vtr <path...>`. */
function helpOf(...path: string[]): string {
  let cmd: Command = buildProgram();
  for (const name of path) cmd = cmd.commands.find((c) => c.name() === name)!;
  return cmd.helpInformation();
}

describe('cli: help options', () => {
  for (const name of ['serve', 'exec']) {
    it(`help: vtr ${name} --help lists --admin-token once, with what the emulator does with it`, () => {
      const text = helpOf(name);
      expect(text.match(/^\s+--admin-token <token>/gm)).toHaveLength(1);
      expect(text).toMatch(/--admin-token <token>\s+require this token/);
      expect(text).not.toContain('emulator admin token');
    });
  }

  it('help: other commands still list the global --admin-token', () => {
    const text = helpOf('sites', 'list');
    expect(text).toMatch(/Global Options:[\s\S]*--admin-token <token>\s+emulator admin token/);
  });
});
