import type { CliContext } from '../../context.js';
import { OperationError } from '../../errors.js';
import { output } from '../../output.js';
import { enc } from '../../site-ref.js';
import type { TokenJson } from './list.js';
import { emulatedClock, timeFormat } from '../../time-display.js';

export async function run(o: { args: string[]; yes?: boolean }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  // Revoking cannot be undone: ask on a terminal. Scripts (no TTY) go ahead, as with `keys rotate`.
  if (!o.yes && ctx.interactive && !(await ctx.prompter.confirm(`Revoke ${o.args[0]}? It answers 401 from then on.`))) {
    throw new OperationError('not revoked');
  }
  const token = await client.admin<TokenJson>('DELETE', `/tokens/${enc(o.args[0])}`);
  const at = timeFormat(await emulatedClock(ctx, client));
  output(ctx, token, () => `Revoked ${token.token} at ${at(token.revoked_at)}`);
}
