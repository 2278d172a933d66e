import type { Webhook } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';
import { renderWebhook } from './render.js';
import { suggestReceiver } from './receive-command.js';
import { checkUrlOption } from './url-option.js';
import { emulatedClock } from '../../time-display.js';

export async function run(o: { site?: string; url?: string }, ctx: CliContext): Promise<void> {
  const url = o.url ?? (await ctx.prompter.input('--url is required: the endpoint to POST to, e.g. http://127.0.0.1:9000/'));
  checkUrlOption(url);
  const client = await ctx.client();
  const hook = await client.admin<Webhook>('POST', `/sites/${enc(await currentSiteId(ctx, client, o.site))}/webhooks`, { body: { url } });
  const emulated = await emulatedClock(ctx, client);
  output(ctx, hook, () => renderWebhook(hook, emulated));
  // With --json the secret is in the document on stdout, not "above" on the terminal.
  const where = ctx.config.json ? 'its secret ("secret" in the JSON on stdout)' : 'the secret above';
  ctx.info(`Sessions newly matching a view with trigger_webhooks are POSTed there, signed with ${where}.`);
  // The receiver to try it with: on the URL's own port when it is a local one.
  suggestReceiver(ctx, hook);
}
