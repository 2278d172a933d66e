import { describe, expect, it } from 'vitest';
import type { ApiClient, RequestOptions } from '../../src/client/api-client.js';
import { listPage, tellMore, MAX_LIMIT } from '../../src/cli/list-page.js';
import type { CliContext } from '../../src/cli/context.js';

/** A management API over `total` items (ids "i<n>", newest first) that records each query. */
function fakeClient(total: number) {
  const queries: Array<Record<string, unknown>> = [];
  const ids = Array.from({ length: total }, (_, i) => ({ id: `i${total - i}` }));
  const client = {
    admin: async (_method: string, _path: string, o: RequestOptions = {}) => {
      const q = o.query ?? {};
      queries.push(q);
      const from = q.before ? ids.findIndex((x) => x.id === q.before) + 1 : 0;
      return ids.slice(from, from + Number(q.limit));
    },
  } as unknown as ApiClient;
  return { client, queries };
}

const idOf = (x: { id: string }) => x.id;

describe('listPage', () => {
  it('listPage: asks for one more than the limit, to know whether the listing was cut', async () => {
    const { client, queries } = fakeClient(3);
    expect(await listPage(client, '/x', { site: 's' }, 2, idOf)).toEqual({ items: [{ id: 'i3' }, { id: 'i2' }], more: true });
    expect(queries).toEqual([{ site: 's', limit: 3 }]);
    expect((await listPage(client, '/x', {}, 3, idOf)).more).toBe(false);
  });

  it('listPage: at the API cap, asks for the page after the last item instead', async () => {
    const over = fakeClient(MAX_LIMIT + 1);
    const page = await listPage(over.client, '/x', {}, MAX_LIMIT, idOf);
    expect(page.items).toHaveLength(MAX_LIMIT);
    expect(page.more).toBe(true);
    expect(over.queries).toEqual([{ limit: MAX_LIMIT }, { limit: 1, before: 'i2' }]);
    const exact = fakeClient(MAX_LIMIT);
    expect((await listPage(exact.client, '/x', {}, MAX_LIMIT, idOf)).more).toBe(false);
  });

  it('tellMore: past the cap, names the flags that narrow the listing', () => {
    const lines: string[] = [];
    const ctx = { info: (l: string) => lines.push(l) } as unknown as CliContext;
    tellMore(ctx, { items: new Array(MAX_LIMIT), more: true }, 'session', '--where');
    tellMore(ctx, { items: [1], more: false }, 'session', '--where');
    expect(lines).toEqual([`Showing the newest ${MAX_LIMIT} sessions, the most one listing shows; there are more: narrow it with --where.`]);
  });
});
