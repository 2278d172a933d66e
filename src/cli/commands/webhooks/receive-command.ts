// The `vtr webhooks receive` that would listen at a local webhook URL: its port, and its address
// when that is not the receiver's default 127.0.0.1.
import type { Webhook } from '../../../domain/webhooks.js';
import { urlText } from './render.js';
import { isLocal, otherLoopback } from '../../credentials.js';
import type { CliContext } from '../../context.js';

/** `vtr webhooks receive --port P [--host H]` for a URL on this machine, else null. */
export function receiveCommandFor(url: string): string | null {
  if (!isLocal(url)) return null;
  const port = portOf(new URL(url));
  const host = otherLoopback(url);
  return `vtr webhooks receive --port ${port}${host ? ` --host ${host}` : ''}`;
}

/** After a webhook is pointed at a URL: the receiver to try it with, when the URL is a local one. */
export function suggestReceiver(ctx: CliContext, hook: Webhook): void {
  const receive = receiveCommandFor(hook.url);
  if (!receive) return;
  const emulator = ownOrigin(ctx.config.baseUrl, new URL(hook.url));
  if (emulator) {
    // No receiver can listen there: the emulator itself would answer the deliveries (404).
    ctx.info(`Note: ${urlText(hook.url)} is the emulator's own address (${emulator}): its deliveries would be answered by the emulator, not by a receiver. Start one on a port of its own (vtr webhooks receive --port 9000 --secret ${hook.secret}) and point a webhook there (--url http://127.0.0.1:9000/).`);
    return;
  }
  ctx.info(`Try it: ${receive} --secret ${hook.secret} (unless a receiver already listens there)`);
}

/** The emulator's origin when `url` names its address and port (localhost: either loopback), else null. */
function ownOrigin(baseUrl: string | undefined, url: URL): string | null {
  if (!baseUrl || !isLocal(baseUrl)) return null;
  const base = new URL(baseUrl);
  const named = (u: URL) => u.hostname.toLowerCase().replace(/\.$/, '') === 'localhost';
  const sameHost = base.hostname === url.hostname || named(base) || named(url);
  return sameHost && base.protocol === url.protocol && portOf(base) === portOf(url) ? base.origin : null;
}

/** The port a URL reaches, its scheme's default when it names none. */
function portOf(u: URL): string {
  return u.port || (u.protocol === 'https:' ? '443' : '80');
}
