// A listing cut to --limit, and whether it was cut: known by asking for one item more (at the API's
// cap, for the page after the last item), never guessed from a full page.
import type { ApiClient, RequestOptions } from '../client/api-client.js';
import type { CliContext } from './context.js';

/** The most one listing answers (the management API's `limit` cap). */
export const MAX_LIMIT = 10_000;

export interface Page<T> {
  items: T[];
  more: boolean;
}

export async function listPage<T>(client: ApiClient, path: string, query: NonNullable<RequestOptions['query']>, limit: number, idOf: (item: T) => string): Promise<Page<T>> {
  if (limit < MAX_LIMIT) {
    const got = await client.admin<T[]>('GET', path, { query: { ...query, limit: limit + 1 } });
    return { items: got.slice(0, limit), more: got.length > limit };
  }
  const items = await client.admin<T[]>('GET', path, { query: { ...query, limit } });
  if (items.length < limit) return { items, more: false };
  const next = await client.admin<T[]>('GET', path, { query: { ...query, limit: 1, before: idOf(items[items.length - 1]) } });
  return { items, more: next.length > 0 };
}

/**
 * Says on stderr (data stays alone on stdout) that a listing was cut, and how to see the rest:
 * a higher --limit, or past the cap, a narrower listing (`narrow`: its flags).
 */
export function tellMore(ctx: CliContext, page: Page<unknown>, noun: string, narrow: string): void {
  if (!page.more) return;
  const shown = `Showing the newest ${page.items.length} ${page.items.length === 1 ? noun : `${noun}s`}`;
  ctx.info(page.items.length < MAX_LIMIT
    ? `${shown}; there are more: raise --limit (up to ${MAX_LIMIT}) to see them.`
    : `${shown}, the most one listing shows; there are more: narrow it with ${narrow}.`);
}
