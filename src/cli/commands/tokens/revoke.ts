import type { CliContext } from '../../context.js';
import { OperationError } from '../../errors.js';
import { output } from '../../output.js';
import { enc, onGivenSite } from '../../site-ref.js';
import type { TokenJson } from './list.js';
import { emulatedClock, timeFormat } from '../../time-display.js';

export async function run(o: { args: string[]; yes?: boolean }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  // No token route to read one by: it is found in the list (an unknown one is the API's 404 below).
  const given = o.args[0];
  await onGivenSite<TokenJson>(ctx, client, async () => (await client.admin<TokenJson[]>('GET', '/tokens')).find((t) => t.token === given), `access token ${given}`);
  // Revoking cannot be undone: ask on a terminal. Scripts (no TTY) go ahead, as with `keys rotate`.
  if (!o.yes && ctx.interactive && !(await ctx.prompter.confirm(`Revoke ${given}? It answers 401 from then on.`))) {
    throw new OperationError('not revoked');
  }
  const token = await client.admin<TokenJson>('DELETE', `/tokens/${enc(given)}`);
  const at = timeFormat(await emulatedClock(ctx, client));
  output(ctx, token, () => `Revoked ${token.token} at ${at(token.revoked_at)}`);
}
