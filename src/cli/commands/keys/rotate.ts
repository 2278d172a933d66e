import type { CliContext } from '../../context.js';
import { OperationError } from '../../errors.js';
import { keyValues, output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';
import type { Keys } from './show.js';

export async function run(o: { site?: string; yes?: boolean }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const id = await currentSiteId(ctx, client, o.site);
  if (!o.yes && ctx.interactive && !(await ctx.prompter.confirm(`Rotate the keys of ${id}? The current ones stop working at once.`))) {
    throw new OperationError('keys not rotated');
  }
  const keys = await client.admin<Keys>('POST', `/sites/${enc(id)}/keys/rotate`);
  output(ctx, keys, () => keyValues(Object.entries(keys)));
  ctx.info('The old site key and secret key no longer work.');
}
