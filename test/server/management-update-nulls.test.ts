// A change (PATCH) of a site, saved view or rule with null for a field that cannot be null says so and
// to leave the field out, as clients sending every field need to hear; the fields that can be null
// (a site's country and owner email, a rule's threshold and filter where the rule has none) take it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';

let h: Harness;
beforeEach(() => {
  h = harness();
});
afterEach(() => h.close());

const keep = 'leave it out to keep the current one';

async function refused(path: string, field: string, why: string) {
  const before = (await h.admin('GET', path)).body;
  const r = await h.admin('PATCH', path, { [field]: null });
  expect(r, field).toMatchObject({ status: 400, body: { code: 'invalid_request', field, message: `${field}: cannot be null (${why}); ${keep}` } });
  expect((await h.admin('GET', path)).body, field).toEqual(before);
}

describe('management API: null in a change', () => {
  it('sites update: null for a field a site always has is refused naming the field and to leave it out', async () => {
    const path = `/sites/${h.site.site_id}`;
    await refused(path, 'name', 'a site needs a name');
    await refused(path, 'plan', 'a site is on the free or paid plan');
    await refused(path, 'conversion_events', 'use [] for none');
    await refused(path, 'bounce_seconds', 'use 0 for none');
    await refused(path, 'excluded_countries', 'use [] for none');
    await refused(path, 'ip_allowlist', 'use [] for none');
    // Other wrong values keep their wording; the nullable fields still take null.
    expect((await h.admin('PATCH', path, { name: 5 })).body.message).toBe('name: expected a string');
    expect((await h.admin('PATCH', path, { plan: 'gold' })).body.message).toBe('plan: must be one of free, paid');
    expect((await h.admin('PATCH', path, { country: null, owner_email: null })).body).toMatchObject({ country: null, owner_email: null });
  });

  it('views update: null for name, filter or trigger_webhooks is refused naming the field and to leave it out', async () => {
    const view = (await h.admin('POST', `/sites/${h.site.site_id}/views`, { name: 'View', filter: 'page_views >= 1' })).body.saved_view_id as string;
    await refused(`/views/${view}`, 'name', 'a saved view needs a name');
    await refused(`/views/${view}`, 'filter', 'a saved view needs a filter');
    await refused(`/views/${view}`, 'trigger_webhooks', 'use true or false');
    expect((await h.admin('PATCH', `/views/${view}`, { trigger_webhooks: 'yes' })).body.message).toBe('trigger_webhooks: expected a boolean');
  });

  it('rules update: null for name, action or enabled is refused; null threshold and filter are refused only where the rule has one', async () => {
    const site = h.site.site_id;
    const rule = (await h.admin('POST', `/sites/${site}/rules`, { name: 'Rule', filter: 'risk_level = invalid', action: 'block' })).body.rule_id as string;
    const custom = `/sites/${site}/rules/${rule}`;
    await refused(custom, 'name', 'a rule needs a name');
    await refused(custom, 'action', 'a rule needs an action');
    await refused(custom, 'enabled', 'use true or false');
    await refused(custom, 'filter', 'a custom rule needs a filter');
    await refused(`/sites/${site}/rules/repeat_device`, 'threshold', 'repeat_device counts up to its threshold');
    expect((await h.admin('PATCH', custom, { action: 'stop' })).body.message).toBe('action: must be one of allow, allow_review, review, block_review, block');
    // A rule with no threshold (or, smart, no filter) takes the null it has, as its JSON shows it.
    expect((await h.admin('PATCH', custom, { threshold: null, enabled: false })).body).toMatchObject({ threshold: null, enabled: false });
    expect((await h.admin('PATCH', `/sites/${site}/rules/bot`, { filter: null, threshold: null, action: 'review' })).body).toMatchObject({ filter: null, threshold: null, action: 'review' });
    expect((await h.admin('PATCH', `/sites/${site}/rules/bot`, { threshold: 4 })).body.message).toBe('threshold: bot takes none; only repeat_device and emails_per_device do');
  });
});

describe('management API: null in a new one', () => {
  it('sites, views and rules create: null for a field with a default is refused saying to leave it out for the default', async () => {
    const site = h.site.site_id;
    const say = async (path: string, body: Record<string, unknown>, field: string, message: string) => {
      expect(await h.admin('POST', path, body), field).toMatchObject({ status: 400, body: { code: 'invalid_request', field, message: `${field}: ${message}` } });
    };
    await say('/sites', { name: null }, 'name', 'cannot be null (a site needs a name); leave it out for the default, "Untitled site"');
    await say('/sites', { plan: null }, 'plan', 'cannot be null (a site is on the free or paid plan); leave it out for the default, paid');
    await say('/sites', { bounce_seconds: null }, 'bounce_seconds', 'cannot be null (use 0 for none); leave it out for the default, 10');
    await say('/sites', { ip_allowlist: null }, 'ip_allowlist', 'cannot be null (use [] for none); leave it out for the default, []');
    const view = { name: 'View', filter: 'page_views >= 1', trigger_webhooks: null };
    await say(`/sites/${site}/views`, view, 'trigger_webhooks', 'cannot be null (use true or false); leave it out for the default, false');
    const rule = { filter: 'risk_level = invalid', action: 'block' };
    await say(`/sites/${site}/rules`, { ...rule, name: null }, 'name', 'cannot be null (a rule needs a name); leave it out to name it after its filter');
    await say(`/sites/${site}/rules`, { ...rule, enabled: null }, 'enabled', 'cannot be null (use true or false); leave it out for the default, true');
    expect((await h.admin('GET', '/sites')).body).toHaveLength(1);
    // The nullable ones still take null.
    expect((await h.admin('POST', '/sites', { country: null, owner_email: null })).body).toMatchObject({ country: null, owner_email: null });
  });
  it('views, rules and webhooks create: null for a required field is refused saying it cannot be null and what it takes', async () => {
    const site = h.site.site_id;
    const say = async (path: string, body: Record<string, unknown>, field: string, message: string) => {
      expect(await h.admin('POST', path, body), field).toMatchObject({ status: 400, body: { code: 'invalid_request', field, message: `${field}: ${message}` } });
    };
    await say(`/sites/${site}/views`, { name: null, filter: 'page_views >= 1' }, 'name', 'cannot be null (a saved view needs a name); required, a string');
    await say(`/sites/${site}/views`, { name: 'View', filter: null }, 'filter', 'cannot be null (a saved view needs a filter); required, a string');
    await say(`/sites/${site}/rules`, { filter: null, action: 'block' }, 'filter', 'cannot be null (a rule needs a filter); required, a string');
    await say(`/sites/${site}/rules`, { filter: 'risk_level = invalid', action: null }, 'action', 'cannot be null (a rule needs an action); required, one of allow, allow_review, review, block_review, block');
    await say(`/sites/${site}/webhooks`, { url: null }, 'url', 'cannot be null (a webhook needs a url); required, a string');
    // Left out, as before: required.
    await say(`/sites/${site}/webhooks`, {}, 'url', 'required, a string');
  });
});

describe('management API: a change with no body', () => {
  it('sites, views, rules and webhooks update: an empty body is a 400 saying to send the fields to change; {} stays a 200 that changes nothing', async () => {
    const site = h.site.site_id;
    const view = (await h.admin('POST', `/sites/${site}/views`, { name: 'V', filter: 'page_views >= 1' })).body;
    const hook = (await h.admin('POST', `/sites/${site}/webhooks`, { url: 'http://127.0.0.1:9/x' })).body;
    for (const path of [`/sites/${site}`, `/views/${view.saved_view_id}`, `/sites/${site}/rules/bot`, `/webhooks/${hook.webhook_id}`]) {
      const r = await h.admin('PATCH', path);
      expect(r, path).toMatchObject({ status: 400, body: { code: 'invalid_request', field: 'body' } });
      expect(r.body.message, path).toMatch(/^body: empty: send the fields to change as a JSON object, e\.g\. \{"\w+": .+\}$/);
      expect((await h.admin('PATCH', path, {})).status, path).toBe(200);
    }
  });
});
