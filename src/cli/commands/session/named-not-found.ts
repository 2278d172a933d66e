import { ApiError } from '../../../client/api-client.js';
import { shownId } from '../../../domain/errors.js';

/**
 * The API's 404 for a session says no id ("session not found"): the same error naming the one asked
 * for, as a missing site or webhook event is named, so a script looping over ids says which failed.
 */
export function namedSessionNotFound(id: string) {
  return (err: unknown): never => {
    if (err instanceof ApiError && err.status === 404 && err.message === 'session not found') {
      throw new ApiError(err.status, err.code, `session ${shownId(id)} not found`, err.body);
    }
    throw err;
  };
}
