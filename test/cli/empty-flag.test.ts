import { describe, expect, it } from 'vitest';
import { refuseEmpty } from '../../src/cli/empty-flag.js';
import { UsageError } from '../../src/cli/errors.js';

describe('cli: a flag given empty', () => {
  it('empty flag: "" or blanks is a usage error naming the flag and the likely cause', () => {
    expect(() => refuseEmpty('--webhook', '')).toThrow(new UsageError('--webhook: must not be empty (a shell variable left unset?)'));
    expect(() => refuseEmpty('--site', ' \t')).toThrow(new UsageError('--site: must not be empty or blank (a shell variable left unset?)'));
  });

  it('empty flag: what to do instead follows, when the command says it', () => {
    expect(() => refuseEmpty('--ip', '', 'leave it out to send no ip')).toThrow(new UsageError('--ip: must not be empty (a shell variable left unset?); leave it out to send no ip'));
  });

  it('empty flag: a value, or a flag left out, passes', () => {
    for (const value of ['x', ' x ', undefined, true, 5]) expect(() => refuseEmpty('--view', value)).not.toThrow();
  });
});
