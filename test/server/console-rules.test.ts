// The console's Rules page and the decision shown on checks and sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';

let h: Harness;
beforeAll(() => {
  h = harness();
});
afterAll(() => h?.close());

const page = async (path: string) => {
  const res = await h.request(path, { headers: { host: 'localhost' } });
  return { status: res.status, text: await res.text() };
};
const form = (path: string, body: Record<string, string>) =>
  h.request(path, { method: 'POST', body: new URLSearchParams(body), headers: { origin: 'http://localhost', host: 'localhost' }, redirect: 'manual' });

describe('console: rules', () => {
  it('rules page: lists the rules in order; a smart rule is toggled in place; a custom rule is created; a bad filter shows its caret', async () => {
    const site = h.site.site_id;
    const list = await page(`/_vtr/console/rules?site=${site}`);
    expect(list.status).toBe(200);
    const order = ['allowlist', 'bot', 'anonymous', 'location', 'repeat_device', 'emails_per_device'].map((id) => list.text.indexOf(`id="rule-${id}"`));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]))).toBe(true);

    const toggled = await form(`/_vtr/console/rules/${site}/location/toggle`, {});
    expect(toggled.status).toBe(303);
    expect(h.emulator.deps.rules!.get(site, 'location').enabled).toBe(true);

    const bad = await form(`/_vtr/console/rules?site=${site}`, { name: 'x', filter: 'risks contans vpn', action: 'block', enabled: 'on' });
    expect(bad.status).toBe(400);
    const badText = await bad.text();
    expect(badText).toContain('contans');
    expect(badText).toContain('^');

    const made = await form(`/_vtr/console/rules?site=${site}`, { name: 'Block Tor', filter: 'risks contains tor', action: 'block', enabled: 'on' });
    expect(made.status).toBe(303);
    const custom = h.emulator.deps.rules!.list(site).find((r) => r.name === 'Block Tor');
    expect(custom).toMatchObject({ type: 'custom', action: 'block', enabled: true });
  });

  it('rule forms: a cleared threshold says it is required, and 1e1 is no number, instead of reading them as 0 and 10', async () => {
    const site = h.site.site_id;
    for (const [threshold, says] of [['', 'threshold: required: a whole number from 1 to 1000000'], ['  ', 'threshold: required'], ['1e1', 'threshold: must be a whole number from 1 to 1000000']]) {
      const r = await form(`/_vtr/console/rules/${site}/repeat_device`, { name: 'Repeat', action: 'review', threshold });
      expect(r.status, JSON.stringify(threshold)).toBe(400);
      const text = await r.text();
      expect(text).toContain(says);
      expect(text).not.toContain('must be at least 1');
    }
    expect(h.emulator.deps.rules!.get(site, 'repeat_device').threshold).toBe(10);
    expect((await page(`/_vtr/console/rules/${site}/repeat_device`)).text).toMatch(/id="rule-threshold" name="threshold" min="1" value="10" required/);
  });

  it('rule forms: a refused threshold or filter comes back with everything typed (threshold, action, enabled), not the stored rule', async () => {
    const site = h.site.site_id;
    const smart = await form(`/_vtr/console/rules/${site}/repeat_device`, { name: 'Repeat', action: 'block', threshold: '-1' });
    expect(smart.status).toBe(400);
    const text = await smart.text();
    expect(text).toContain('threshold: must be at least 1');
    expect(text).toMatch(/id="rule-threshold" name="threshold" min="1" value="-1"[^>]*autofocus/);
    expect(text).toContain('<option value="block" selected>');
    expect(text).toMatch(/<input type="checkbox" id="rule-enabled" name="enabled">/);
    expect(h.emulator.deps.rules!.get(site, 'repeat_device').threshold).toBe(10);
    const custom = await form(`/_vtr/console/rules?site=${site}`, { name: 'x', filter: 'risks contans vpn', action: 'allow' });
    const created = await custom.text();
    expect(created).toContain('<option value="allow" selected>');
    expect(created).toMatch(/<input type="checkbox" id="rule-enabled" name="enabled">/);
  });

  it('rule forms: a new rule with the name left blank is named after its filter, as the API names one sent without a name', async () => {
    const site = h.site.site_id;
    const blank = await page(`/_vtr/console/rules?site=${site}`);
    expect(blank.text).not.toMatch(/id="rule-name"[^>]*required/);
    const made = await form(`/_vtr/console/rules?site=${site}`, { name: '', filter: 'country_code = JP', action: 'block', enabled: 'on' });
    expect(made.status).toBe(303);
    expect(h.emulator.deps.rules!.list(site).find((r) => r.filter === 'country_code = JP')).toMatchObject({ name: 'country_code = JP', action: 'block' });
    // Changing a rule keeps its name required: a blank one there is refused, naming the field.
    const edit = await page(`/_vtr/console/rules/${site}/bot`);
    expect(edit.text).toMatch(/id="rule-name"[^>]*required/);
  });

  it('rule forms: a filter with a line break (as the API takes it) is shown in a text area, which keeps it, not a text field, which drops its line breaks', async () => {
    const site = h.site.site_id;
    const rule = h.emulator.deps.rules!.create(site, { name: 'Two lines', filter: 'city = "New\nYork"\nor country_code = DE', action: 'review' });
    const edit = (await page(`/_vtr/console/rules/${site}/${rule.rule_id}`)).text;
    // A text field's value loses its line breaks in a browser: "New\nYork" would be saved as "NewYork".
    expect(edit).not.toMatch(/<input[^>]*id="rule-filter"/);
    expect(edit).toMatch(/<textarea id="rule-filter" name="filter"[^>]*>\ncity = &quot;New\nYork&quot;\nor country_code = DE<\/textarea>/);
    // A browser sends a text area's line breaks as CRLF: saved as the LF the filter had, not changed.
    const saved = await form(`/_vtr/console/rules/${site}/${rule.rule_id}`, { name: 'Two lines', filter: 'city = "New\r\nYork"\r\nor country_code = DE', action: 'block', enabled: 'on' });
    expect(saved.status).toBe(303);
    expect(h.emulator.deps.rules!.get(site, rule.rule_id)).toMatchObject({ filter: 'city = "New\nYork"\nor country_code = DE', action: 'block' });
    // One line: the text field, as before.
    const single = h.emulator.deps.rules!.create(site, { name: 'One line', filter: 'country_code = FR', action: 'review' });
    expect((await page(`/_vtr/console/rules/${site}/${single.rule_id}`)).text).toMatch(/<input type="text" id="rule-filter" name="filter"[^>]* value="country_code = FR"/);
  });

  it('rules page: a ?site= naming no site says so above the rules it shows instead', async () => {
    const missing = await page('/_vtr/console/rules?site=site_gone');
    expect(missing.status).toBe(200);
    // The words every page uses for a link naming no site (siteMissing in fields.ts).
    expect(missing.text).toContain('<div class="error" role="alert" id="site-missing"><p>There is no site site_gone (deleted, or from another emulator): these are the rules of Local site.</p></div>');
    const present = await page(`/_vtr/console/rules?site=${h.site.site_id}`);
    expect(present.text).not.toContain('id="site-missing"');
  });

  it('rule forms: a post without ?site= (or naming no site) shows the form again with the error and what was typed, as the views form does, instead of a 404 page', async () => {
    for (const [path, says] of [['/_vtr/console/rules', 'site: required'], ['/_vtr/console/rules?site=site_gone', 'site_gone']]) {
      const r = await form(path, { name: 'Keep me', filter: 'risks contains tor', action: 'block', enabled: 'on' });
      expect(r.status, path).toBe(400);
      const text = await r.text();
      expect(text, path).toMatch(/id="form-error"[\s\S]*role="alert"|role="alert" id="form-error"/);
      expect(text, path).toContain(says);
      expect(text, path).toContain('value="Keep me"');
      expect(text, path).not.toContain('<h1>Not found</h1>');
    }
    expect(h.emulator.deps.rules!.list(h.site.site_id).some((r) => r.name === 'Keep me')).toBe(false);
  });

  it('checks page: each check shows its outcome and the rules that matched', async () => {
    const res = await h.request('/api/v1/event', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: h.site.secret_key, ip: '198.51.100.9' }) });
    const check = (await res.json()) as { id: string };
    const list = await page('/_vtr/console/checks');
    expect(list.text).toContain(`check-${check.id}`);
    expect(list.text).toMatch(/outcome-neutral[^<]*<\/span> · review/);
    expect(list.text).toContain('anonymous (review)');
  });

  it('checks page: a custom rule that matched is shown by its name with its action and id, on the list and the check', async () => {
    const rule = h.emulator.deps.rules!.create(h.site.site_id, { name: 'No <Germany>', filter: 'country_code = DE', action: 'block' });
    const res = await h.request('/api/v1/event', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: h.site.secret_key, ip: '203.0.113.9' }) });
    const check = (await res.json()) as { id: string };
    const shown = `No &lt;Germany&gt; (block, ${rule.rule_id})`;
    expect((await page('/_vtr/console/checks')).text).toContain(shown);
    const one = await page(`/_vtr/console/checks/${check.id}`);
    expect(one.text).toContain(shown);
    expect(one.text).toContain('anonymous (review)');
    h.emulator.deps.rules!.delete(h.site.site_id, rule.rule_id);
  });

  it('rules page: each smart rule says what it matches, its threshold counting something, not "fixed condition" or "more than 10"', async () => {
    const site = h.site.site_id;
    const text = (await page(`/_vtr/console/rules?site=${site}`)).text;
    const cell = (id: string) => new RegExp(`id="rule-${id}"[\\s\\S]*?<td>smart</td>\\s*<td class="wrap">([\\s\\S]*?)</td>`).exec(text)?.[1].replace(/<[^>]+>/g, '').replaceAll('&#39;', "'") ?? '';
    expect(text).not.toContain('fixed condition');
    expect(cell('bot')).toContain('bot');
    expect(cell('anonymous')).toContain('anonymous, vpn, proxy or tor');
    expect(cell('location')).toContain("differs from the site's country");
    expect(cell('repeat_device')).toMatch(/more than 10 checks of this site/);
    expect(cell('emails_per_device')).toMatch(/more than 3 different emails/);
    const edit = (await page(`/_vtr/console/rules/${site}/emails_per_device`)).text;
    expect(edit).toMatch(/Matches when[\s\S]*more than 3 different emails/);
  });

  it("allowlist rule page: its address opens the site's settings, where the allowlist is, as the rules list links, instead of a form that can never be saved", async () => {
    const site = h.site.site_id;
    const res = await h.request(`/_vtr/console/rules/${site}/allowlist`, { headers: { host: 'localhost' }, redirect: 'manual' });
    expect(res.status).toBe(302);
    const to = res.headers.get('location') ?? '';
    expect(to).toBe(`/_vtr/console/sites?settings=${site}#site-card-${site}`);
    const list = (await page(`/_vtr/console/rules?site=${site}`)).text;
    expect(list).toContain(`href="${to}"`);
    const settings = (await page(to.split('#')[0])).text;
    expect(settings).toMatch(new RegExp(`<details open><summary aria-label="Settings of [^"]*\\(${site}\\)">`));
    expect(settings).toContain('<dt>ip_allowlist</dt>');
    const posted = await form(`/_vtr/console/rules/${site}/allowlist`, { name: 'x', action: 'block', enabled: 'on' });
    expect(posted.status).toBe(400);
    const text = await posted.text();
    expect(text).toContain('<h1>That could not be done</h1>');
    expect(text).toContain(`<code>vtr sites update ${site} --ip-allowlist &lt;ip|cidr,...&gt;</code>`);
    expect(text).not.toContain('id="rule-name"');
  });

  it('rule and view forms: the filter field is described by its help text (and by the error, when refused), so a screen reader says which language it takes', async () => {
    const site = h.site.site_id;
    const rules = (await page(`/_vtr/console/rules?site=${site}`)).text;
    expect(rules).toMatch(/<input type="text" id="rule-filter"[^>]* aria-describedby="rule-filter-help"/);
    expect(rules).toContain('<p class="muted small" id="rule-filter-help">');
    const refused = await (await form(`/_vtr/console/rules?site=${site}`, { name: 'x', filter: 'risks contans vpn', action: 'block' })).text();
    expect(refused).toMatch(/id="rule-filter"[^>]* aria-describedby="rule-filter-help form-error" aria-invalid="true" autofocus/);
    const views = (await page('/_vtr/console/views')).text;
    expect(views).toMatch(/<input type="text" id="view-filter"[^>]* aria-describedby="view-filter-help"/);
    expect(views).toContain('<p class="muted small" id="view-filter-help">');
    // The name field has no help: described by the error only when refused.
    expect(views).not.toMatch(/id="view-name"[^>]*aria-describedby/);
  });

  it('rules page: its title and heading name the site whose rules it shows, so two tabs (or history entries) of two sites differ', async () => {
    const other = h.emulator.deps.sites.create({ name: 'Shop <Two>' });
    const text = (await page(`/_vtr/console/rules?site=${other.site_id}`)).text;
    expect(text).toContain('<title>Rules of Shop &lt;Two&gt; · vtr console</title>');
    expect(text).toContain('<h1>Rules of Shop &lt;Two&gt;</h1>');
    expect((await page(`/_vtr/console/rules?site=${h.site.site_id}`)).text).toContain('<h1>Rules of Local site</h1>');
    h.emulator.deps.sites.delete(other.site_id);
  });

  it('rules page: the allowlist rule says which IPs it allows (or that it is empty), so its row is understood without leaving the page', async () => {
    const site = h.site.site_id;
    const cell = async () => /id="rule-allowlist"[\s\S]*?<td>allowlist<\/td>\s*<td class="wrap">([\s\S]*?)<\/td>/.exec((await page(`/_vtr/console/rules?site=${site}`)).text)?.[1] ?? '';
    expect(await cell()).toContain('the site has none, so it matches no check');
    h.emulator.deps.sites.update(site, { ip_allowlist: ['203.0.113.0/24', '198.51.100.7'] });
    expect(await cell()).toContain("the check's IP is in the site's IP allowlist: <code>203.0.113.0/24</code>, <code>198.51.100.7</code>");
    h.emulator.deps.sites.update(site, { ip_allowlist: [] });
  });
});
