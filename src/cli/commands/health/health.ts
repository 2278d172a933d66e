// `vtr health`: GET /_vtr/health, shown. A degraded emulator (writes failing) is exit 1 with the
// reason, so a script can wait for recovery with `until vtr health; do sleep 1; done`.
import type { CliContext } from '../../context.js';
import { OperationError } from '../../errors.js';
import { ConnectionError, NotEmulatorError } from '../../../client/api-client.js';
import { keyValues, output } from '../../output.js';
import { readText, send } from '../../../client/http.js';

interface Health {
  status: 'ok' | 'degraded';
  version?: string;
  code?: string;
  reason?: string;
  db?: string;
  since?: string;
  failed_writes?: number;
  request_log_dropped?: number;
}

/** How long a health check waits for its answer (or the client's own limit, when shorter). */
const HEALTH_TIMEOUT_MS = 10_000;

export async function run(_o: unknown, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const url = new URL(`${client.origin}/_vtr/health`);
  const timeoutMs = Math.min(client.options.timeoutMs || HEALTH_TIMEOUT_MS, HEALTH_TIMEOUT_MS);
  let status: number;
  let type: string;
  let text: string;
  try {
    const res = await send(url, { method: 'GET', headers: { accept: 'application/json' }, timeoutMs });
    status = res.statusCode ?? 0;
    type = (res.headers['content-type'] ?? '').split(';')[0].trim() || 'no content type';
    text = await readText(res);
  } catch (err) {
    // Said as every other command says it: unreachable (and how to start one), busy, or cut off.
    throw new ConnectionError(client.origin, err);
  }
  let health: Health;
  try {
    health = JSON.parse(text) as Health;
  } catch {
    health = {} as Health;
  }
  if (health?.status !== 'ok' && health?.status !== 'degraded') {
    // Said as every other command says it: what answered, and which setting to check.
    throw new NotEmulatorError(url.href, status, `HTTP ${status}, ${type}`);
  }
  output(ctx, health, () =>
    keyValues(Object.entries(health).filter(([, v]) => v !== undefined) as Array<[string, string | number]>),
  );
  if (health.status === 'degraded') throw new OperationError(`the emulator is degraded: ${health.reason ?? health.code ?? 'writes fail'}`);
}
