// Hostile input against the built server (a real `vtr serve` process): thousands of generated bad
// requests. Whatever arrives, the server answers below 500, every JSON error is the contract's
// {code, message}, it keeps running and answering, and it logs no "unexpected error".
// JSON bodies: malformed, wrong-typed, oversized, mis-encoded and mis-labelled, on every JSON-taking endpoint.
import { describe, expect, it } from 'vitest';
import { CLOSED, deep, type HostileTarget, json, runAll, useHostileTarget, WRONG_VALUES } from '../helpers/hostile-http.js';

let vtr: HostileTarget;
useHostileTarget((target) => (vtr = target));

describe('hostile HTTP input', () => {
  it('json bodies: malformed, truncated and mutated JSON never get a 5xx', async () => {
    const valid = vtr.endpoints().map((e) => ({ e, text: JSON.stringify({ ...e.fields, ...e.nested }) }));
    const cases: Array<{ method: string; path: string; headers: Record<string, string>; body: string | Buffer }> = [];
    const fixed = ['{', '}', '[', ']', '{"', '{"name":', '{"name":"x"', '{"name":"x",}', "{'name':'x'}", 'nul', 'NaN', 'Infinity', '-', '1e', '"\\u12"', '"\\x41"', '{"a":1}{"b":2}', '\u0000', '\uFEFF{}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', ' \n\t ', '{"name":"\\ud800"}', '{"a":' + '9'.repeat(400) + '}', '1'.repeat(10_000), '"' + '\\'.repeat(1001) + '"'];
    for (const { e, text } of valid) {
      for (const f of fixed) cases.push({ method: e.method, path: e.path, headers: { ...json, ...e.headers }, body: f });
      // Every prefix length class of the valid body.
      for (let n = 0; n < text.length; n += Math.max(1, Math.floor(text.length / 12))) cases.push({ method: e.method, path: e.path, headers: { ...json, ...e.headers }, body: text.slice(0, n) });
      // Random byte mutations of the valid body.
      for (let k = 0; k < 30; k++) {
        const b = Buffer.from(text);
        for (let m = 0; m < 1 + Math.floor(vtr.rand() * 4); m++) {
          const i = Math.floor(vtr.rand() * b.length);
          const op = vtr.rand();
          if (op < 0.5) b[i] = Math.floor(vtr.rand() * 256);
          else if (op < 0.75) b[i] = vtr.pick([0x22, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x5c, 0x00]);
          else b[i] = 0x20;
        }
        cases.push({ method: e.method, path: e.path, headers: { ...json, ...e.headers }, body: b });
      }
    }
    await runAll(cases, 8, async (c) => vtr.check(`${c.method} ${c.path} ${String(c.body).slice(0, 40)}`, await vtr.send(c.method, c.path, { body: c.body, headers: c.headers })));
    await vtr.expectHealthy();
    expect(cases.length).toBeGreaterThan(500);
  });

  it('json fields: a wrong type at every field is a 4xx, never a 5xx', async () => {
    const cases: Array<{ method: string; path: string; headers: Record<string, string>; body: string }> = [];
    for (const e of vtr.endpoints()) {
      const all = { ...e.fields, ...e.nested } as Record<string, unknown>;
      for (const field of Object.keys(all)) {
        for (const v of WRONG_VALUES) cases.push({ method: e.method, path: e.path, headers: { ...json, ...e.headers }, body: JSON.stringify({ ...all, [field]: v }) });
      }
      for (const [outer, inner] of Object.entries(e.nested)) {
        for (const field of Object.keys(inner as object)) {
          for (const v of WRONG_VALUES) cases.push({ method: e.method, path: e.path, headers: { ...json, ...e.headers }, body: JSON.stringify({ ...all, [outer]: { ...(inner as object), [field]: v } }) });
        }
      }
      // Not an object at all, and unknown fields.
      for (const v of WRONG_VALUES) cases.push({ method: e.method, path: e.path, headers: { ...json, ...e.headers }, body: JSON.stringify(v) });
      cases.push({ method: e.method, path: e.path, headers: { ...json, ...e.headers }, body: JSON.stringify({ ...all, unknown_field: 1, 'weird key \u0000': [] }) });
    }
    await runAll(cases, 8, async (c) => vtr.check(`${c.method} ${c.path} ${c.body.slice(0, 80)}`, await vtr.send(c.method, c.path, { body: c.body, headers: c.headers })));
    await vtr.expectHealthy();
    expect(cases.length).toBeGreaterThan(1000);
  });

  it('json size: deep nesting, huge strings and arrays under and over 1 MiB', async () => {
    const bigUnder = 1024 * 1024 - 1000;
    const bodies: Array<{ label: string; body: string }> = [
      { label: 'array nested 100k', body: deep(100_000, 'array') },
      { label: 'object nested 100k', body: deep(100_000, 'object') },
      { label: 'field nested 50k', body: `{"name":${deep(50_000, 'array')}}` },
      { label: 'unclosed nesting 100k', body: '['.repeat(100_000) },
      { label: 'string just under 1 MiB', body: JSON.stringify({ name: 'x'.repeat(bigUnder) }) },
      { label: 'array of 200k numbers', body: JSON.stringify({ custom_events: Array.from({ length: 200_000 }, (_, i) => i) }) },
      { label: 'array of 100k strings', body: JSON.stringify({ custom_events: Array.from({ length: 100_000 }, () => 'e') }) },
      { label: 'object with 50k keys', body: JSON.stringify(Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]))) },
      { label: 'string 1.5 MiB', body: JSON.stringify({ name: 'y'.repeat(1.5 * 1024 * 1024) }) },
      { label: 'array 2 MiB', body: JSON.stringify({ custom_events: Array.from({ length: 400_000 }, () => 'abc') }) },
    ];
    for (const e of vtr.endpoints()) {
      for (const b of bodies) {
        const a = await vtr.send(e.method, e.path, { body: b.body, headers: { ...json, ...e.headers } });
        // Over the limit with a declared length the server may close before the client finished writing.
        const over = Buffer.byteLength(b.body) > 1024 * 1024;
        vtr.check(`${e.method} ${e.path} ${b.label}`, a, { allowTransportError: over });
        // Refused: a 413, or the connection closed while the client was still writing.
        if (over) expect([413, ...CLOSED], `${e.path} ${b.label}`).toContain(a.status || a.error);
      }
    }
    await vtr.expectHealthy();
  });

  it('encoding: invalid UTF-8, NUL bytes, emoji and RTL text', async () => {
    const path = `/api/v1/session/${vtr.sessionId}/event`;
    const invalid = [[0xff], [0xfe, 0xff], [0xc3, 0x28], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]];
    const bodies: Buffer[] = [];
    for (const seq of invalid) {
      bodies.push(Buffer.concat([Buffer.from('{"name":"'), Buffer.from(seq), Buffer.from('"}')]));
      bodies.push(Buffer.from(seq));
    }
    bodies.push(Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00])); // UTF-16LE with BOM
    bodies.push(Buffer.from('{"name":"a\u0000b"}'));
    bodies.push(Buffer.from('{"name":"\\u0000"}'));
    for (const name of ['😀'.repeat(25), '\u202Eevil\u202C', 'שלום עולם', 'مرحبا', 'e\u0301\u0301\u0301', '\uFFFF', '\uD83D', 'null', '<script>alert(1)</script>', '${jndi:ldap://x}', '../../etc/passwd']) {
      bodies.push(Buffer.from(JSON.stringify({ name })));
    }
    const targets = [
      { path, headers: { ...json, ...vtr.bearer() } },
      { path: '/api/v1/event', headers: json },
      { path: `/_vtr/api/sites/${vtr.siteId}/sessions`, headers: json },
      { path: '/_vtr/api/sites', headers: json },
    ];
    for (const t of targets) {
      await runAll(bodies, 4, async (b) => vtr.check(`${t.path} ${b.toString('hex').slice(0, 40)}`, await vtr.send('POST', t.path, { body: b, headers: t.headers })));
    }
    // Emoji, RTL and NUL in paths and queries.
    for (const p of ['/api/v1/session/%F0%9F%98%80', '/api/v1/session/%E2%80%AEx', '/api/v1/session/a%00b', '/api/v1/session/%00', '/_vtr/api/sites/%00', '/_vtr/api/sessions?where=channel%20%3D%20%22a%00b%22', '/_vtr/api/sessions?site=%00', '/api/v1/session/%C0%AF', '/api/v1/session/%FF', '/api/v1/session/%E0%A4%A', '/api/v1/session/%', '/_vtr/api/sessions?where=%', '/_vtr/api/sessions?where=%E0%A4%A']) {
      vtr.check(`GET ${p}`, await vtr.send('GET', p, { headers: vtr.bearer() }));
    }
    await vtr.expectHealthy();
  });

  it('content types: a body that is not JSON is a 415 or 400, never a 5xx', async () => {
    const types = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'application/json; charset=utf-16', 'application/json;;;', 'application/vnd.api+json', 'application/json-seq', '*/*', 'json', '', 'application/json; charset=\u00ff', 'text/html; charset=utf-8', 'application/xml'];
    for (const e of vtr.endpoints()) {
      for (const t of types) {
        const headers: Record<string, string> = { ...e.headers };
        if (t) headers['content-type'] = t;
        vtr.check(`${e.path} ${t}`, await vtr.send(e.method, e.path, { body: JSON.stringify(e.fields), headers }));
        vtr.check(`${e.path} ${t} form`, await vtr.send(e.method, e.path, { body: 'name=x&a=%ff', headers }));
      }
      vtr.check(`${e.path} no content-type`, await vtr.send(e.method, e.path, { body: JSON.stringify(e.fields), headers: e.headers }));
    }
    await vtr.expectHealthy();
  });

  it('state import: garbage is refused without touching the data', async () => {
    const bodies = ['{}', '[]', 'null', '"x"', '{"version":999}', '{"version":"1","tables":[]}', '{"tables":{"sessions":[{"session_id":1}]}}', '{"version":1,"tables":{"sites":"x"}}', deep(100_000, 'object'), deep(100_000, 'array'), `{"version":1,"tables":${deep(10_000, 'array')}}`, '{"vtr_state_version":1,"tables":{"sessions":"x"}}', '{"vtr_state_version":1,"tables":{"nope":[]}}', '{"vtr_state_version":1e308,"tables":{}}', '{"vtr_state_version":1,"tables":{"sessions":[{"nope":1}]}}', '{"vtr_state_version":1,"tables":{"sessions":[{"session_id":{"a":1}}]}}', `{"vtr_state_version":1,"tables":{"sessions":[${deep(50_000, 'array')}]}}`];
    for (const b of bodies) vtr.check(`PUT state ${b.slice(0, 40)}`, await vtr.send('PUT', '/_vtr/api/state', { body: b, headers: json }));
    await vtr.expectHealthy();
    expect(vtr.checked).toBe(bodies.length);
  });
});
