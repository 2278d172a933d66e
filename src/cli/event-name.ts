import { UsageError } from './errors.js';

/**
 * A custom event's name as typed, without the spaces around it (the API drops them too). A name of
 * only spaces is refused: no site can convert on one and it cannot be told from none; from a shell
 * it is an unset variable.
 */
export function eventNameArg(where: string, name: string): string {
  if (name.trim() === '') throw new UsageError(`${where}: must not be empty${name ? ' or blank' : ''}: a custom event needs a name, e.g. signup`);
  return name.trim();
}
