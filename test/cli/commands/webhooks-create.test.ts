import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/context.js';
import { run } from '../../../src/cli/commands/webhooks/create.js';
import { UsageError } from '../../../src/cli/errors.js';

/** What `vtr webhooks create --url <url>` says on stderr, against an emulator at 127.0.0.1:8787. */
async function hints(url: string): Promise<string[]> {
  const info: string[] = [];
  const client = {
    admin: async (method: string, path: string, o?: { body?: { url: string } }) =>
      method === 'POST' ? { webhook_id: 'wh_1', url: o!.body!.url, secret: 'whsec_abc', status: 'enabled' } : path === '/clock' ? { mode: 'system' } : { site_id: 'site_1' },
  };
  const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdinIsTTY: false };
  const ctx = { io, config: { json: true, quiet: false, site: 'site_1', baseUrl: 'http://127.0.0.1:8787/api/v1' }, interactive: false, client: async () => client, info: (l: string) => info.push(l) } as unknown as CliContext;
  await run({ url }, ctx);
  return info;
}

/** The "Try it" line `vtr webhooks create --url <url>` prints for a local URL. */
const tryIt = async (url: string) => (await hints(url)).find((l) => l.startsWith('Try it'));

describe('vtr webhooks create', () => {
  it('webhooks create: the receiver suggested for a local URL listens where the URL points (--host for [::1] or another 127.x)', async () => {
    expect(await tryIt('http://127.0.0.1:9000/')).toBe('Try it: vtr webhooks receive --port 9000 --secret whsec_abc (unless a receiver already listens there)');
    expect(await tryIt('http://localhost:9000/hook')).toBe('Try it: vtr webhooks receive --port 9000 --secret whsec_abc (unless a receiver already listens there)');
    expect(await tryIt('http://[::1]:9000/hook')).toBe('Try it: vtr webhooks receive --port 9000 --host ::1 --secret whsec_abc (unless a receiver already listens there)');
    expect(await tryIt('http://127.0.0.2:9000/')).toBe('Try it: vtr webhooks receive --port 9000 --host 127.0.0.2 --secret whsec_abc (unless a receiver already listens there)');
    expect(await tryIt('https://hooks.example.com/x')).toBeUndefined();
  });

  it("webhooks create: a URL on the emulator's own port says deliveries would reach the emulator, not a receiver, instead of suggesting a receiver there", async () => {
    for (const url of ['http://127.0.0.1:8787/api/v1', 'http://localhost:8787/hook']) {
      const said = await hints(url);
      expect(said.find((l) => l.startsWith('Try it')), url).toBeUndefined();
      expect(said.join('\n'), url).toContain("is the emulator's own address (http://127.0.0.1:8787)");
      expect(said.join('\n'), url).toContain('vtr webhooks receive --port 9000');
    }
    for (const url of ['http://127.0.0.1:8788/', 'http://127.0.0.2:8787/']) expect((await hints(url)).join('\n'), url).not.toContain("emulator's own");
  });

  it('webhooks create: a host and port without a scheme suggest the http:// URL meant, as a usage error', async () => {
    const refused = (url: string) => hints(url).then(() => null, (e: Error) => e);
    expect((await refused('localhost:9000'))?.message).toBe('--url: "localhost:9000" must use http or https, not localhost (did you mean http://localhost:9000?)');
    expect((await refused('127.0.0.1:9000/hook'))?.message).toBe('--url: "127.0.0.1:9000/hook" must be an absolute http:// or https:// URL (did you mean http://127.0.0.1:9000/hook?)');
    expect(await refused('localhost:9000')).toBeInstanceOf(UsageError);
    // Nothing to guess from: the example stays.
    expect((await refused('ftp://example.com/'))?.message).toBe('--url: "ftp://example.com/" must use http or https, not ftp (e.g. http://127.0.0.1:9000/)');
  });
});
