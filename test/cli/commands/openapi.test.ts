import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/context.js';
import { run } from '../../../src/cli/commands/openapi/openapi.js';

function context(baseUrl: string): { ctx: CliContext; out: () => string } {
  let out = '';
  const io = { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: () => true }, stdinIsTTY: false };
  const ctx = { io, config: { baseUrl, baseUrlFrom: '--base-url' }, interactive: false, info: () => {} } as unknown as CliContext;
  return { ctx, out: () => out };
}

describe('vtr openapi', () => {
  it('openapi: a base URL without the /api/v1 segment is a usage error naming the flag, not a document whose public server answers 404', async () => {
    for (const url of ['http://127.0.0.1:8787', 'http://127.0.0.1:8787/', 'http://127.0.0.1:8787/api']) {
      const { ctx, out } = context(url);
      await expect(run({}, ctx), url).rejects.toThrow(`--base-url: "${url}" is not the public API base; it must end in /api/v1 (e.g. http://127.0.0.1:8787/api/v1)`);
      expect(out()).toBe('');
    }
    const { ctx, out } = context('http://127.0.0.1:8787/api/v1?x=1');
    await expect(run({}, ctx)).rejects.toThrow('--base-url: "http://127.0.0.1:8787/api/v1?x=1" has a query string (?x=1), which a base URL cannot carry; use http://127.0.0.1:8787/api/v1');
    expect(out()).toBe('');
  });

  it('openapi: a base URL ending in /api/v1, with or without a trailing slash, is the public server', async () => {
    for (const url of ['http://127.0.0.1:8787/api/v1', 'http://127.0.0.1:8787/api/v1/', 'https://risk.example.com/proxy/api/v1']) {
      const { ctx, out } = context(url);
      await run({}, ctx);
      const doc = JSON.parse(out());
      expect(doc.servers).toEqual([{ url: url.replace(/\/$/, '') }]);
    }
  });
});
