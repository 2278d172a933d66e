// The console's server side when it is reached: what a browser may cache, and the admin-token
// cookie that guards every page.
import { afterEach, describe, expect, it } from 'vitest';
import { harnessPool } from '../helpers/emulator.js';
import { form, page } from '../helpers/console-requests.js';

const pool = harnessPool();
const fresh = pool.fresh;
afterEach(pool.closeAll);

describe('console caching', () => {
  it('pages, fragments and form answers are never cached (Back shows what is current)', async () => {
    const h = fresh();
    for (const path of ['/_vtr/console/sites', '/_vtr/console/sessions', '/_vtr/console/nope']) {
      expect((await page(h, path)).headers.get('cache-control'), path).toBe('no-store');
    }
    const refused = await form(h, '/_vtr/console/views', { site_id: h.site.site_id, name: 'x', filter: 'channel =' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });
});

describe('console stream worker', () => {
  it('every page names the shared stream\'s worker by its script\'s hash; the worker is served as JavaScript, guarded as the pages are', async () => {
    const h = fresh({ adminToken: 'worker-admin' });
    const cookie = { cookie: 'vtr_admin=worker-admin' };
    const sessions = await page(h, '/_vtr/console/sessions', cookie);
    const url = /data-worker="([^"]+)"/.exec(sessions.text)![1];
    expect(url).toMatch(/^\/_vtr\/console\/stream-worker\.js\?v=[0-9a-f]{12}$/);
    const worker = await page(h, url, cookie);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(worker.text).toContain('/_vtr/api/stream?types=');
    expect((await page(h, url, { accept: '*/*' })).status).toBe(401); // as a worker asks for its script
  });
});

describe('console with --admin-token', () => {
  const T = 's3cret-admin';
  it('asks for the token at /, keeps it in a cookie, and guards every page', async () => {
    const h = fresh({ adminToken: T });
    const ask = await page(h, '/');
    expect(ask.status).toBe(401);
    expect(ask.text).toContain('<label for="admin_token">');
    expect((await page(h, '/?admin_token=wrong')).status).toBe(401);
    const given = await page(h, `/?admin_token=${T}`);
    expect(given.status).toBe(302);
    const cookie = given.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^vtr_admin=s3cret-admin;/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);

    const without = await page(h, '/_vtr/console/sessions');
    expect(without.status).toBe(302);
    expect(without.headers.get('location')).toBe('/?next=%2F_vtr%2Fconsole%2Fsessions');
    expect((await h.request('/_vtr/api/sessions')).status).toBe(401);
    expect((await page(h, '/_vtr/console/sessions', { cookie: `vtr_admin=${T}` })).status).toBe(200);
    expect((await page(h, '/', { cookie: `vtr_admin=${T}` })).status).toBe(302);
    expect((await h.request('/_vtr/api/stream', { headers: { cookie: 'vtr_admin=nope' } })).status).toBe(401);

    // A console link carrying the token: cookie set, token dropped from the URL.
    const link = await page(h, `/_vtr/console/sites?admin_token=${T}&x=1`);
    expect(link.status).toBe(302);
    expect(link.headers.get('location')).toBe('/_vtr/console/sites?x=1');
    expect(link.headers.get('set-cookie')).toMatch(/^vtr_admin=/);
  });

  it('a console link opened without the token: / asks for it, then opens the page that was asked for', async () => {
    const h = fresh({ adminToken: T });
    const asked = await page(h, `/_vtr/console/webhooks/wh_x?status=failed&admin_token=wrong`);
    expect(asked.status).toBe(302);
    const login = asked.headers.get('location')!;
    expect(login).toBe('/?next=' + encodeURIComponent('/_vtr/console/webhooks/wh_x?status=failed'));
    const form = await page(h, login);
    expect(form.status).toBe(401);
    expect(form.text).toContain('<input type="hidden" name="next" value="/_vtr/console/webhooks/wh_x?status=failed">');
    // A link carrying the token and the page asked for.
    const wrong = await page(h, `/?admin_token=nope&next=${encodeURIComponent('/_vtr/console/webhooks/wh_x?status=failed')}`);
    expect(wrong.text).toContain('name="next" value="/_vtr/console/webhooks/wh_x?status=failed"');
    const given = await page(h, `/?admin_token=${T}&next=${encodeURIComponent('/_vtr/console/webhooks/wh_x?status=failed')}`);
    expect(given.status).toBe(302);
    expect(given.headers.get('location')).toBe('/_vtr/console/webhooks/wh_x?status=failed');
    // Only this console's pages: never another site.
    for (const next of ['https://evil.example/', '//evil.example/_vtr/console', '/_vtr/consolex', '/_vtr/console/\\evil', '/elsewhere']) {
      const r = await page(h, `/?admin_token=${T}&next=${encodeURIComponent(next)}`);
      expect(r.headers.get('location')).toBe('/_vtr/console/sessions');
    }
  });

  it('/: the token form posts, so a typed token (a wrong one too) never reaches the address bar', async () => {
    const h = fresh({ adminToken: T });
    const ask = await page(h, '/?next=' + encodeURIComponent('/_vtr/console/checks'));
    expect(ask.text).toContain('<form method="post" action="/"');
    const post = (token: string) =>
      h.request('/', { method: 'POST', body: new URLSearchParams({ admin_token: token, next: '/_vtr/console/checks' }), headers: { accept: 'text/html' }, redirect: 'manual' });
    const wrong = await post('nope');
    expect(wrong.status).toBe(401);
    const text = await wrong.text();
    expect(text).toContain('That is not the admin token.');
    expect(text).toContain('name="next" value="/_vtr/console/checks"');
    const given = await post(T);
    expect(given.status).toBe(303);
    expect(given.headers.get('location')).toBe('/_vtr/console/checks');
    expect(given.headers.get('set-cookie')).toMatch(/^vtr_admin=s3cret-admin;/);
  });

  it('/: accepts the admin token as a bearer header, like every other console path', async () => {
    const h = fresh({ adminToken: T });
    const ok = await page(h, '/', { authorization: `Bearer ${T}` });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('/_vtr/console/sessions');
    expect((await page(h, '/_vtr/console/sessions', { authorization: `Bearer ${T}` })).status).toBe(200);
    const wrong = await page(h, '/', { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('That is not the admin token.');
  });
});
