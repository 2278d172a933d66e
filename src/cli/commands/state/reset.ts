import type { CliContext } from '../../context.js';
import { OperationError, UsageError } from '../../errors.js';
import { keyValues, output } from '../../output.js';

interface ResetAnswer {
  reset: boolean;
  site: { site_id: string; name: string; site_key: string; secret_key: string };
  access_token: string;
}

export async function run(o: { yes?: boolean }, ctx: CliContext): Promise<void> {
  if (!o.yes && !ctx.interactive) throw new UsageError('state reset deletes everything: pass --yes to confirm without a prompt');
  const client = await ctx.client();
  if (!o.yes && !(await ctx.prompter.confirm(`Delete all sites, sessions, checks, views and webhooks of ${client.origin}?`))) {
    throw new OperationError('cancelled; nothing changed');
  }
  const answer = await client.admin<ResetAnswer>('POST', '/state/reset');
  output(ctx, answer, () => [
    `Reset. The default site "${answer.site.name}" (${answer.site.site_id}) kept its keys:`,
    keyValues([
      ['  site key', answer.site.site_key],
      ['  secret key', answer.site.secret_key],
      ['  access token', answer.access_token],
    ]),
  ]);
}
