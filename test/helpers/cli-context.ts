// A CLI context for calling a command's `run` directly: its client talks to `baseUrl` with a short
// time limit (the client's usual one, made short), stdout is captured, `--json --quiet` is on.
import { createApiClient } from '../../src/client/api-client.js';
import type { CliContext } from '../../src/cli/context.js';

export function jsonContext(baseUrl: string, timeoutMs = 100): { ctx: CliContext; out: () => string } {
  let out = '';
  const client = createApiClient({ baseUrl, timeoutMs });
  const io = { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: () => true }, stdinIsTTY: false };
  const ctx = { io, config: { json: true, quiet: true }, interactive: false, client: async () => client, info: () => {} } as unknown as CliContext;
  return { ctx, out: () => out };
}
