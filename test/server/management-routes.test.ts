// The management API as mounted from its declarations (src/api/management/): every declared path
// answers its declared methods and refuses the others with a 405 naming them.
import { afterEach, describe, expect, it } from 'vitest';
import { MANAGEMENT_ROUTES } from '../../src/api/management/index.js';
import { harness, type Harness } from '../helpers/emulator.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('management API: routes', () => {
  it('routes: every declared path refuses an undeclared method with a 405 whose Allow header lists the declared ones', async () => {
    h = harness();
    const byPath = new Map<string, string[]>();
    for (const r of MANAGEMENT_ROUTES) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r.method.toUpperCase()]);
    // `/sites/default` names a site as `/sites/{site_id}` does: it has that path's methods too.
    byPath.set('/_vtr/api/sites/default', [...new Set([...byPath.get('/_vtr/api/sites/default')!, ...byPath.get('/_vtr/api/sites/{site_id}')!])]);
    for (const [path, methods] of byPath) {
      const url = path.replace('/_vtr/api', '').replaceAll(/\{\w+\}/g, 'x_1');
      const other = ['PUT', 'PATCH', 'DELETE', 'POST'].find((m) => !methods.includes(m))!;
      const r = await h.admin(other, url);
      expect(r.status, `${other} ${path}`).toBe(405);
      expect(r.body.code).toBe('method_not_allowed');
      const allow = r.headers.get('allow')!.split(', ');
      expect(allow, path).toEqual(expect.arrayContaining(methods));
      expect(allow.filter((m) => !['HEAD', 'OPTIONS'].includes(m)).sort(), path).toEqual([...methods].sort());
    }
  });

  it('routes: a bad query value is a 400 naming it, checked before the handler runs', async () => {
    h = harness();
    const hook = await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: 'http://127.0.0.1:9/hook' });
    const r = await h.admin('GET', `/webhooks/${hook.body.webhook_id}/events?status=lost`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_request', field: 'status', message: 'status: must be one of pending, retrying, delivered, failed' });
    expect((await h.admin('GET', `/webhooks/${hook.body.webhook_id}/events?status=`)).status).toBe(200);
  });

  it('routes: every route of the app fits Hono\'s RegExpRouter, and /sites/default still answers beside /sites/{site_id}', async () => {
    h = harness();
    expect((await h.admin('GET', '/sites/default')).body.site_id).toBe(h.site.site_id);
    expect((await h.admin('GET', `/sites/${h.site.site_id}`)).body.site_id).toBe(h.site.site_id);
    expect((await h.admin('GET', '/sites/site_nope')).status).toBe(404);
    // A literal path beside a parameter one would make Hono fall back to its TrieRouter for every request.
    expect(h.emulator.app.router.name).toBe('SmartRouter + RegExpRouter');
  });
});
