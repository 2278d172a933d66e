import { webhookUrlProblem, type Webhook } from '../../../domain/webhooks.js';
import { UsageError } from '../../errors.js';
import { isLocal } from '../../credentials.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';
import { renderWebhook, urlText } from './render.js';
import { receiveCommandFor } from './receive-command.js';
import { urlExample } from './url-example.js';
import { emulatedClock } from '../../time-display.js';

export async function run(o: { site?: string; url?: string }, ctx: CliContext): Promise<void> {
  const url = o.url ?? (await ctx.prompter.input('--url is required: the endpoint to POST to, e.g. http://127.0.0.1:9000/'));
  const problem = webhookUrlProblem(url);
  if (problem) throw new UsageError(`--url: "${urlText(url)}" ${problem} (${urlExample(url)})`);
  const client = await ctx.client();
  const hook = await client.admin<Webhook>('POST', `/sites/${enc(await currentSiteId(ctx, client, o.site))}/webhooks`, { body: { url } });
  const emulated = await emulatedClock(ctx, client);
  output(ctx, hook, () => renderWebhook(hook, emulated));
  // With --json the secret is in the document on stdout, not "above" on the terminal.
  const where = ctx.config.json ? 'its secret ("secret" in the JSON on stdout)' : 'the secret above';
  ctx.info(`Sessions newly matching a view with trigger_webhooks are POSTed there, signed with ${where}.`);
  // The receiver to try it with: on the URL's own port when it is a local one.
  const receive = receiveCommandFor(hook.url);
  if (receive) {
    const emulator = ownOrigin(ctx.config.baseUrl, new URL(hook.url));
    if (emulator) {
      // No receiver can listen there: the emulator itself would answer the deliveries (404).
      ctx.info(`Note: ${urlText(hook.url)} is the emulator's own address (${emulator}): its deliveries would be answered by the emulator, not by a receiver. Start one on a port of its own (vtr webhooks receive --port 9000 --secret ${hook.secret}) and point a webhook there (--url http://127.0.0.1:9000/).`);
      return;
    }
    ctx.info(`Try it: ${receive} --secret ${hook.secret} (unless a receiver already listens there)`);
  }
}

/** The emulator's origin when `url` names its address and port (localhost: either loopback), else null. */
function ownOrigin(baseUrl: string | undefined, url: URL): string | null {
  if (!baseUrl || !isLocal(baseUrl)) return null;
  const base = new URL(baseUrl);
  const portOf = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
  const named = (u: URL) => u.hostname.toLowerCase().replace(/\.$/, '') === 'localhost';
  const sameHost = base.hostname === url.hostname || named(base) || named(url);
  return sameHost && base.protocol === url.protocol && portOf(base) === portOf(url) ? base.origin : null;
}
