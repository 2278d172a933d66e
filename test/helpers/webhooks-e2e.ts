// What the webhook end-to-end files share: servers, receivers and CLI processes each file starts,
// stopped after every test, and the calls that wire a webhook to a view.
import { afterEach } from 'vitest';
import { startServer, type ServerProcess } from './vtr-process.js';
import { spawnCli as spawnWatched } from './cli-process.js';
import { startReceiver, type Receiver } from './receiver.js';
import { adminApi, newSessionAt, wireWebhook } from './admin.js';

/** Call at a test file's top level: what it starts is stopped after each of its tests. */
export function webhooksE2e() {
  const cleanup: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });
  return {
    admin: <T = any>(s: ServerProcess, method: string, path: string, body?: unknown): Promise<T> => adminApi<T>(s.origin, method, path, body),
    async serve(args: string[]): Promise<ServerProcess> {
      const s = await startServer(args);
      cleanup.push(() => s.stop('SIGKILL'));
      return s;
    },
    async receiver(opts?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
      const r = await startReceiver(opts);
      cleanup.push(() => r.close());
      return r;
    },
    wire: (s: ServerProcess, url: string, opts?: { view?: boolean }) => wireWebhook(s.origin, url, opts),
    newSession: (s: ServerProcess) => newSessionAt(s.origin),
    spawnCli: (args: string[], env: Record<string, string>) => spawnWatched(args, env, cleanup),
  };
}
