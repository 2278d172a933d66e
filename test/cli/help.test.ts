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

describe('cli: exec help', () => {
  it('help: vtr exec --help names the variables the command gets and the exit codes it gives', () => {
    const exec = buildProgram().commands.find((c) => c.name() === 'exec')!;
    let text = '';
    exec.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
    exec.outputHelp();
    for (const name of ['VTR_BASE_URL', 'VTR_SECRET_KEY', 'VTR_SITE_KEY', 'VTR_ACCESS_TOKEN', 'VTR_SITE']) expect(text).toContain(name);
    expect(text).toMatch(/128 \+ N/);
    expect(text).toMatch(/127/);
    // The global flags exec refuses are not offered.
    const globals = text.slice(text.indexOf('Global Options:'), text.indexOf('The command gets'));
    for (const flag of ['--base-url', '--json', '--secret-key', '--token', '--site']) expect(globals).not.toContain(flag);
    expect(globals).toContain('--quiet');
  });
});
