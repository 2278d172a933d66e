// The built CLI pointed at an HTTP server that is not vtr: one clear line naming the URL, exit 1,
// never a JavaScript TypeError from a command reading fields the answer does not have.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vtr } from '../helpers/foundation-e2e.js';

const ANSWERS: Record<string, { status: number; type: string; body: string }> = {
  'a 200 HTML page': { status: 200, type: 'text/html; charset=utf-8', body: '<!doctype html><html><body><h1>My app</h1></body></html>' },
  'JSON {}': { status: 200, type: 'application/json', body: '{}' },
  'a 404 HTML page': { status: 404, type: 'text/html', body: '<html><body>Not Found</body></html>' },
};

const COMMANDS = [
  ['clock', 'advance', '1m'],
  ['sessions', 'list'],
  ['check', '--ip', '192.0.2.1'],
  ['health'],
];

describe('cli against a server that is not vtr (built binary)', { timeout: 60_000 }, () => {
  const servers: Array<{ name: string; server: Server; origin: string }> = [];
  beforeAll(async () => {
    for (const [name, a] of Object.entries(ANSWERS)) {
      const server = createServer((req, res) => {
        req.resume();
        res.writeHead(a.status, { 'content-type': a.type });
        res.end(a.body);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      servers.push({ name, server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.server.close(r))));
  });

  it('clock advance, sessions list, check, health: an HTML page or JSON of another shape is named as not a vtr emulator, exit 1', async () => {
    const runs = servers.flatMap((s) => COMMANDS.map((args) => ({ s, args })));
    const results = await Promise.all(runs.map(({ s, args }) => vtr([...args, '--base-url', `${s.origin}/api/v1`])));
    results.forEach((r, i) => {
      const { s, args } = runs[i];
      const what = `${args.join(' ')} against ${s.name}: ${r.stderr}`;
      expect(r.stderr, what).not.toMatch(/TypeError|Cannot read properties|is not a function|undefined/);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines, what).toHaveLength(1);
      expect(lines[0], what).toMatch(
        new RegExp(`^vtr: error: ${s.origin}/\\S+ did not answer like a vtr emulator \\(HTTP \\d+, [^)]+\\)\\. Check --base-url / VTR_BASE_URL \\(now ${s.origin}/api/v1\\)\\.$`),
      );
      expect(r.stdout, what).toBe('');
      expect(r.code, what).toBe(1);
    });
  });

  it('check with a secret key: the answer to POST /event is checked too (no default-site lookup first)', async () => {
    const json = servers.find((s) => s.name === 'JSON {}')!;
    const r = await vtr(['check', '--ip', '192.0.2.1', '--secret-key', 'sk_test_x', '--base-url', `${json.origin}/api/v1`]);
    expect(r.stderr).toBe(`vtr: error: ${json.origin}/api/v1/event did not answer like a vtr emulator (HTTP 200, JSON without "id"). Check --base-url / VTR_BASE_URL (now ${json.origin}/api/v1).\n`);
    expect(r.code).toBe(1);
  });
});
