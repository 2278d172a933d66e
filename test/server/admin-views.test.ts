import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, TIMESTAMP, type Harness } from '../helpers/emulator.js';

describe('management API: saved views', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness({ clock: 'manual' });
  });
  afterEach(() => h.close());

  it('views: create, list, get, update, delete', async () => {
    const created = await h.admin('POST', `/sites/${h.site.site_id}/views`, { name: 'Bad', filter: 'risk_level = invalid', trigger_webhooks: true });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      saved_view_id: expect.stringMatching(/^view_/),
      site_id: h.site.site_id,
      name: 'Bad',
      filter: 'risk_level = invalid',
      trigger_webhooks: true,
      created_at: expect.stringMatching(TIMESTAMP),
    });
    const id = created.body.saved_view_id;
    expect((await h.admin('GET', `/sites/${h.site.site_id}/views`)).body).toEqual([created.body]);
    expect((await h.admin('GET', `/views/${id}`)).body).toEqual(created.body);
    const updated = await h.admin('PATCH', `/views/${id}`, { name: 'Worse', trigger_webhooks: false });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Worse', filter: 'risk_level = invalid', trigger_webhooks: false });
    expect((await h.admin('DELETE', `/views/${id}`)).body).toEqual({ deleted: true, saved_view_id: id });
    expect((await h.admin('GET', `/views/${id}`)).status).toBe(404);
  });

  it('views: trigger_webhooks defaults to false', async () => {
    const r = await h.admin('POST', `/sites/${h.site.site_id}/views`, { name: 'All', filter: 'page_views >= 1' });
    expect(r.body.trigger_webhooks).toBe(false);
  });

  it('views: a bad filter is refused with its position', async () => {
    const r = await h.admin('POST', `/sites/${h.site.site_id}/views`, { name: 'x', filter: 'risk_level = invalid and' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_filter', position: expect.any(Number) });
    expect(r.body.position).toBeGreaterThanOrEqual(20);
    const p = await h.admin('POST', `/sites/${h.site.site_id}/views`, { name: 'x', filter: 'nosuchfield = 1' });
    expect(p.body).toMatchObject({ code: 'invalid_filter', position: 0 });
  });

  it('views: an update with a bad filter is refused and changes nothing', async () => {
    const { body: v } = await h.admin('POST', `/sites/${h.site.site_id}/views`, { name: 'x', filter: 'channel = paid' });
    const r = await h.admin('PATCH', `/views/${v.saved_view_id}`, { filter: '(channel = paid' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_filter');
    expect((await h.admin('GET', `/views/${v.saved_view_id}`)).body.filter).toBe('channel = paid');
  });

  it('views: wrong types, unknown fields and missing fields are 400 naming the field', async () => {
    const path = `/sites/${h.site.site_id}/views`;
    expect((await h.admin('POST', path, { name: 'x', filter: 1 })).body).toMatchObject({ code: 'invalid_request', field: 'filter' });
    expect((await h.admin('POST', path, { name: 'x', filter: 'a = b', trigger_webhooks: 'yes' })).body).toMatchObject({ field: 'trigger_webhooks' });
    expect((await h.admin('POST', path, { filter: 'channel = paid' })).body).toMatchObject({ code: 'invalid_request', field: 'name' });
    expect((await h.admin('POST', path, { name: 'x', filter: 'channel = paid', extra: 1 })).status).toBe(400);
  });

  it('views: unknown site or view is 404; a wrong method is 405', async () => {
    expect((await h.admin('GET', '/sites/site_nope/views')).status).toBe(404);
    expect((await h.admin('POST', '/sites/site_nope/views', { name: 'x', filter: 'channel = paid' })).status).toBe(404);
    expect((await h.admin('PATCH', '/views/view_nope', { name: 'y' })).status).toBe(404);
    const r = await h.admin('PUT', `/sites/${h.site.site_id}/views`, {});
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toContain('POST');
  });
});
