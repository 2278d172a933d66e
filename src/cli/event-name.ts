import { UsageError } from './errors.js';

/**
 * A custom event's name as typed: the API takes a name of spaces, but no site can convert on one
 * (`--conversion-events` drops blanks) and it cannot be told from none: from a shell it is an unset variable.
 */
export function refuseBlankEventName(where: string, name: string): void {
  if (name.trim() === '') throw new UsageError(`${where}: must not be empty${name ? ' or blank' : ''}: a custom event needs a name, e.g. signup`);
}
