// What already listens on the port `webhooks receive` was given, when it can tell: a vtr emulator
// (a user pointing the receiver at the emulator's own port) or another receiver.
import { readText, send } from '../../../client/http.js';
import { bindAddress, urlHost } from '../../../domain/ip-intel.js';

export type PortOwner = 'emulator' | 'receiver' | null;

/** One quick GET /_vtr/health: an emulator answers its health, a receiver its 405 text; else null. */
export async function portOwner(host: string, port: number): Promise<PortOwner> {
  try {
    const url = new URL(`http://${urlHost(bindAddress(host))}:${port}/_vtr/health`);
    const res = await send(url, { method: 'GET', headers: { accept: 'application/json' }, timeoutMs: 1000, ownConnection: true });
    const text = (await readText(res)).slice(0, 10_000);
    if (res.statusCode === 405 && text.startsWith('vtr webhooks receive is listening here')) return 'receiver';
    const body = JSON.parse(text) as { status?: unknown; version?: unknown };
    return (body.status === 'ok' || body.status === 'degraded') && typeof body.version === 'string' ? 'emulator' : null;
  } catch {
    return null;
  }
}

/** The refusal of a port in use, saying what listens there when it is known. */
export function portInUse(port: number, owner: PortOwner): string {
  const pick = 'pick another with --port (e.g. --port 0 for any free one)';
  if (owner === 'emulator') return `port ${port} is in use: a vtr emulator (vtr serve) is listening there, and deliveries go to a receiver on a port of its own; ${pick}`;
  if (owner === 'receiver') return `port ${port} is in use: another vtr webhooks receive is listening there; stop it (Ctrl-C in its terminal) or ${pick}`;
  return `port ${port} is in use; ${pick}`;
}
