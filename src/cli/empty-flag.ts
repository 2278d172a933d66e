import { UsageError } from './errors.js';

/**
 * A flag given "" or only blanks: from a shell almost always a variable left unset (`--site "$SITE"`),
 * so a usage error naming it, not what the flag means when left out (the default site, every webhook,
 * no field). `instead` says what to do rather than give it empty.
 */
export function refuseEmpty(flag: string, value: unknown, instead?: string): void {
  if (typeof value !== 'string' || value.trim() !== '') return;
  throw new UsageError(`${flag}: must not be empty${value ? ' or blank' : ''} (a shell variable left unset?)${instead ? `; ${instead}` : ''}`);
}
