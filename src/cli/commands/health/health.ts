// `vtr health`: GET /_vtr/health, shown. A degraded emulator (writes failing) is exit 1 with the
// reason, so a script can wait for recovery with `until vtr health; do sleep 1; done`.
import type { CliContext } from '../../context.js';
import { OperationError } from '../../errors.js';
import { ConnectionError, NotEmulatorError } from '../../../client/api-client.js';
import { keyValues, output } from '../../output.js';

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

export async function run(_o: unknown, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const url = `${client.origin}/_vtr/health`;
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    // Said as every other command says it (the cause, and how to start one).
    throw new ConnectionError(client.origin, (err as Error).cause ?? err);
  }
  const health = (await res.json().catch(() => ({}))) as Health;
  if (health.status !== 'ok' && health.status !== 'degraded') {
    // Said as every other command says it: what answered, and which setting to check.
    const type = (res.headers.get('content-type') ?? '').split(';')[0].trim() || 'no content type';
    throw new NotEmulatorError(url, res.status, `HTTP ${res.status}, ${type}`);
  }
  output(ctx, health, () =>
    keyValues(Object.entries(health).filter(([, v]) => v !== undefined) as Array<[string, string | number]>),
  );
  if (health.status === 'degraded') throw new OperationError(`the emulator is degraded: ${health.reason ?? health.code ?? 'writes fail'}`);
}
