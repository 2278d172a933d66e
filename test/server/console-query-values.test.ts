// Console pages given a query value they cannot use (a hand-edited or stale link): the page says
// what is wrong and which values it takes, rather than quietly showing everything or a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';
import { page } from '../helpers/console-requests.js';

let h: Harness;
beforeAll(() => {
  h = harness({ clock: 'manual', retrySchedule: [3_600_000, 3_600_000, 3_600_000, 3_600_000, 3_600_000] });
});
afterAll(() => h?.close());
const C = '/_vtr/console';

describe('console: query values it cannot use', () => {
  it('webhook page: ?status=bogus says the status is not one of pending, retrying, delivered, failed, and lists no events', async () => {
    const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: 'http://127.0.0.1:9/' })).body;
    await h.admin('POST', `/webhooks/${hook.webhook_id}/trigger`);
    const r = await page(h, `${C}/webhooks/${hook.webhook_id}?status=bogus`);
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/role="alert"[^>]*><p>[^<]*status[^<]*bogus[^<]*is not one of pending, retrying, delivered, failed/);
    expect(r.text).toContain('aria-invalid="true"');
    expect(r.text).not.toMatch(/<tr id="ev-/);
    expect(r.text).not.toContain('vtrPage.webhookEvents(');
    const ok = await page(h, `${C}/webhooks/${hook.webhook_id}?status=pending`);
    expect(ok.text).not.toContain('is not one of');
    expect(ok.text).toMatch(/<tr id="ev-/);
    // The select's "All" is an empty value: still every event, no error.
    expect((await page(h, `${C}/webhooks/${hook.webhook_id}?status=`)).text).not.toContain('is not one of');
  });

  it('list pages: a ?before= cursor that names nothing (pruned, deleted, mistyped) says the newest are shown instead', async () => {
    await h.request('/api/v1/nowhere');
    for (const [path, gone] of [['logs', 'req_gone'], ['checks', 'chk_gone'], ['sessions', 'ses_gone']]) {
      const r = await page(h, `${C}/${path}?before=${gone}`);
      expect(r.status, path).toBe(200);
      expect(r.text, path).toMatch(new RegExp(`role="status"[^>]*><p>There is no ${gone} to page from[^<]*: these are the newest`));
    }
    // A cursor that names a real row shows no note.
    const ses = await h.createSession();
    expect((await page(h, `${C}/sessions?before=${ses.session_id}`)).text).not.toContain('to page from');
  });

  it('webhooks and views pages: a ?site= naming no site says so, and the new-item form picks no other site in its place', async () => {
    const other = (await h.admin('POST', '/sites', { name: 'Second shop', plan: 'paid' })).body;
    for (const path of ['webhooks', 'views']) {
      const r = await page(h, `${C}/${path}?site=site_gone`);
      expect(r.status, path).toBe(200);
      expect(r.text, path).toMatch(/<div class="error" role="alert" id="site-missing"><p>There is no site site_gone \(deleted, or from another emulator\): pick the site/);
      expect(r.text, path).toMatch(/<select [^>]*aria-invalid="true" aria-describedby="site-missing"[^>]*><option value="" selected>/);
      expect(r.text, path).not.toMatch(/<option value="site_[^"]*" selected>/);
      // A site that exists is picked, as before, with no note.
      const known = await page(h, `${C}/${path}?site=${other.site_id}`);
      expect(known.text, path).not.toContain('id="site-missing"');
      expect(known.text, path).toContain(`<option value="${other.site_id}" selected>`);
    }
    await h.admin('DELETE', `/sites/${other.site_id}`);
  });

  it('sites page: ?settings= naming no site says so instead of opening nothing without a word', async () => {
    const none = await page(h, `${C}/sites?settings=site_gone`);
    expect(none.status).toBe(200);
    expect(none.text).toMatch(/<div class="error" role="alert" id="site-missing"><p>There is no site site_gone \(deleted, or from another emulator\)/);
    expect(none.text).not.toMatch(/<details open>/);
    const shown = await page(h, `${C}/sites?settings=${h.site.site_id}`);
    expect(shown.text).not.toContain('id="site-missing"');
    expect(shown.text).toMatch(/<details open>/);
  });

  it('webhook event page: ?refused= naming no reason claims no refusal; a known one says why', async () => {
    const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: 'http://127.0.0.1:9/' })).body;
    const ev = (await h.admin('POST', `/webhooks/${hook.webhook_id}/trigger`)).body;
    const bogus = await page(h, `${C}/webhook-events/${ev.webhook_event_id}?refused=bogus`);
    expect(bogus.status).toBe(200);
    expect(bogus.text).not.toContain('id="outcome"');
    expect(bogus.text).not.toContain('Not retried');
    const known = await page(h, `${C}/webhook-events/${ev.webhook_event_id}?refused=already_delivered`);
    expect(known.text).toContain('Not retried: the event was already delivered.');
  });

  it('sites page: ?rotated= naming no site claims no rotation; naming one, it names the site', async () => {
    const none = await page(h, `${C}/sites?rotated=site_bogus`);
    expect(none.status).toBe(200);
    expect(none.text).not.toContain('Rotated the keys');
    const site = (await h.admin('GET', `/sites/${h.site.site_id}`)).body;
    const shown = await page(h, `${C}/sites?rotated=${site.site_id}`);
    expect(shown.text).toContain(`Rotated the keys of ${site.name} (${site.site_id}).`);
  });
});
