import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/context.js';
import { run } from '../../../src/cli/commands/webhooks/create.js';

/** The "Try it" line `vtr webhooks create --url <url>` prints for a local URL. */
async function tryIt(url: string): Promise<string | undefined> {
  const info: string[] = [];
  const client = {
    admin: async (method: string, path: string, o?: { body?: { url: string } }) =>
      method === 'POST' ? { webhook_id: 'wh_1', url: o!.body!.url, secret: 'whsec_abc', status: 'enabled' } : path === '/clock' ? { mode: 'system' } : { site_id: 'site_1' },
  };
  const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdinIsTTY: false };
  const ctx = { io, config: { json: true, quiet: false, site: 'site_1' }, interactive: false, client: async () => client, info: (l: string) => info.push(l) } as unknown as CliContext;
  await run({ url }, ctx);
  return info.find((l) => l.startsWith('Try it'));
}

describe('vtr webhooks create', () => {
  it('webhooks create: the receiver suggested for a local URL listens where the URL points (--host for [::1] or another 127.x)', async () => {
    expect(await tryIt('http://127.0.0.1:9000/')).toBe('Try it: vtr webhooks receive --port 9000 --secret whsec_abc (unless a receiver already listens there)');
    expect(await tryIt('http://localhost:9000/hook')).toBe('Try it: vtr webhooks receive --port 9000 --secret whsec_abc (unless a receiver already listens there)');
    expect(await tryIt('http://[::1]:9000/hook')).toBe('Try it: vtr webhooks receive --port 9000 --host ::1 --secret whsec_abc (unless a receiver already listens there)');
    expect(await tryIt('http://127.0.0.2:9000/')).toBe('Try it: vtr webhooks receive --port 9000 --host 127.0.0.2 --secret whsec_abc (unless a receiver already listens there)');
    expect(await tryIt('https://hooks.example.com/x')).toBeUndefined();
  });
});
