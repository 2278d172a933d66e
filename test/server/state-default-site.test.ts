// State import and the default site: exactly one site of an imported file is the default.
import { afterEach, describe, expect, it } from 'vitest';
import { harnessPool, type Harness } from '../helpers/emulator.js';

type Doc = { tables: Record<string, Array<Record<string, unknown>>> };
const pool = harnessPool();
const fresh = pool.fresh;
afterEach(pool.closeAll);

/** An export with the default site and a later one, "Shop". */
async function twoSites(h: Harness): Promise<{ doc: Doc; shop: string }> {
  const shop = (await h.admin<{ site_id: string }>('POST', '/sites', { name: 'Shop' })).body.site_id;
  return { doc: (await h.admin<Doc>('GET', '/state')).body, shop };
}

describe('state import: the default site', () => {
  it('import: a file whose sites are none the default makes the oldest one the default, which then cannot be deleted last', async () => {
    const h = fresh();
    const { doc, shop } = await twoSites(h);
    for (const s of doc.tables.sites) s.is_default = 0;
    expect((await h.admin('PUT', '/state', doc)).status).toBe(200);
    const sites = (await h.admin<Array<{ site_id: string; is_default: boolean }>>('GET', '/sites')).body;
    expect(sites.map((s) => [s.site_id, s.is_default])).toEqual([[h.site.site_id, true], [shop, false]]);
    expect((await h.admin('DELETE', `/sites/${shop}`)).status).toBe(200);
    const last = await h.admin('DELETE', `/sites/${h.site.site_id}`);
    expect(last.status).toBe(409);
    expect(last.body.message).toMatch(/the last site cannot be deleted/);
  });

  it('import: a file with more than one default site is refused naming them; nothing changes', async () => {
    const h = fresh();
    const { doc, shop } = await twoSites(h);
    for (const s of doc.tables.sites) s.is_default = 1;
    await h.admin('DELETE', `/sites/${shop}`);
    const r = await h.admin('PUT', '/state', doc);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_request' });
    expect(r.body.message).toContain(`tables.sites: 2 sites are the default (is_default 1: ${h.site.site_id}, ${shop}); mark one`);
    expect((await h.admin<Array<{ site_id: string }>>('GET', '/sites')).body.map((s) => s.site_id)).toEqual([h.site.site_id]);
  });
});
