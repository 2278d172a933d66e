// The console's error page for a refused request: titled for what happened, commands as code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';
import { form } from '../helpers/console-requests.js';

let h: Harness;
beforeAll(() => {
  h = harness();
});
afterAll(() => h?.close());

const main = (text: string) => /<main[^>]*>([\s\S]*)<\/main>/.exec(text)?.[1] ?? '';

describe('console: error pages', () => {
  it('error page: a refused post (400) is titled "That could not be done", not "Something went wrong", its command shown as code', async () => {
    const site = h.site.site_id;
    const r = await form(h, `/_vtr/console/rules/${site}/allowlist/delete`, {});
    expect(r.status).toBe(400);
    const whole = await r.text();
    expect(whole).toContain('<title>That could not be done · vtr console</title>');
    const text = main(whole);
    expect(text).toContain('<h1>That could not be done</h1>');
    expect(text).toContain(`<code>vtr sites update ${site} --ip-allowlist &quot;&quot;</code>`);
    expect(text).not.toContain('`');
  });

  it('error page: a built-in rule that cannot be deleted names the command to disable it as code', async () => {
    const r = await form(h, `/_vtr/console/rules/${h.site.site_id}/bot/delete`, {});
    expect(r.status).toBe(400);
    const text = main(await r.text());
    expect(text).toContain('<h1>That could not be done</h1>');
    expect(text).toContain('<code>vtr rules update bot --disable</code>');
    expect(text).not.toContain('`');
  });
});
