// `default` names the default site on every path under /_vtr/api/sites/{site_id}, as it does at
// /_vtr/api/sites/default, and in a list's ?site=.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';

let h: Harness;
beforeEach(() => {
  h = harness();
});
afterEach(async () => {
  await h.close();
});

describe('management API: the default site by name', () => {
  it('sites default: every sub-resource answers as under the default site\'s id', async () => {
    const id = h.site.site_id;
    const view = await h.admin('POST', '/sites/default/views', { name: 'bad', filter: 'risk_level = invalid' });
    expect(view.status).toBe(201);
    expect(view.body.site_id).toBe(id);
    const hook = await h.admin('POST', '/sites/default/webhooks', { url: 'http://127.0.0.1:9/hook' });
    expect(hook.status).toBe(201);
    expect(hook.body.site_id).toBe(id);
    const session = await h.admin('POST', '/sites/default/sessions', { ip: '192.0.2.1' });
    expect(session.status).toBe(201);
    expect(session.body.site_id).toBe(id);
    expect((await h.admin('POST', '/sites/default/sessions/simulate', { count: 2 })).status).toBe(201);
    const rule = await h.admin('POST', '/sites/default/rules', { name: 'tor', filter: 'risks contains tor', action: 'block' });
    expect(rule.status).toBe(201);
    expect(rule.body.site_id).toBe(id);
    expect((await h.admin('PATCH', `/sites/default/rules/${rule.body.rule_id}`, { action: 'review' })).body.action).toBe('review');
    expect((await h.admin('GET', `/sites/default/rules/${rule.body.rule_id}`)).status).toBe(200);
    for (const sub of ['views', 'webhooks', 'rules', 'tokens', 'keys']) {
      const byName = await h.admin('GET', `/sites/default/${sub}`);
      expect([sub, byName.status, byName.body]).toEqual([sub, 200, (await h.admin('GET', `/sites/${id}/${sub}`)).body]);
    }
    const token = await h.admin('POST', '/sites/default/tokens');
    expect([token.status, token.body.site_id]).toEqual([201, id]);
    const rotated = await h.admin('POST', '/sites/default/keys/rotate');
    expect([rotated.status, rotated.body.site_id]).toEqual([200, id]);
    expect((await h.admin('DELETE', `/sites/default/rules/${rule.body.rule_id}`)).status).toBe(200);
  });

  it('sites default: PATCH changes the default site, as under its id', async () => {
    const r = await h.admin('PATCH', '/sites/default', { name: 'Renamed' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ site_id: h.site.site_id, name: 'Renamed' });
  });

  it('sites default: DELETE deletes the default site and answers its id', async () => {
    const other = await h.admin('POST', '/sites', { name: 'Other' });
    const r = await h.admin('DELETE', '/sites/default');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ deleted: true, site_id: h.site.site_id });
    expect((await h.admin('GET', '/sites')).body.map((s: { site_id: string }) => s.site_id)).toEqual([other.body.site_id]);
  });

  it('sites default: a list\'s ?site=default is the default site', async () => {
    await h.admin('POST', '/sites/default/sessions', { ip: '192.0.2.1' });
    const r = await h.admin('GET', '/sessions?site=default');
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(1);
    expect((await h.admin('GET', '/tokens?site=default')).body).toEqual((await h.admin('GET', `/tokens?site=${h.site.site_id}`)).body);
  });
});
