import type { Session } from '../../../domain/session.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { wholeNumber } from '../../whole-number.js';
import { output } from '../../output.js';
import { currentSiteId } from '../../site-ref.js';
import { ApiError } from '../../../client/api-client.js';
import { renderSessions } from './render.js';
import { emulatedClock } from '../../time-display.js';
import { listPage, tellMore, type Page } from '../../list-page.js';
import { formatFilterError } from '../../../domain/filter/index.js';

export async function run(o: { where?: string; limit: string; allSites?: boolean; site?: string }, ctx: CliContext): Promise<void> {
  const limit = wholeNumber('--limit', o.limit, 1, 10_000);
  if (o.allSites && o.site) throw new UsageError('--all-sites lists every site, --site one: give only one of them');
  // The client leaves empty query values out, which would list every session: refuse it here, as the API does.
  if (o.where === '') throw new UsageError('--where: empty filter: expected a field name at position 0, e.g. "channel = paid" (leave --where out to list every session)');
  const client = await ctx.client();
  const site = o.allSites ? undefined : await currentSiteId(ctx, client, o.site);
  let page: Page<Session>;
  try {
    page = await listPage<Session>(client, '/sessions', { site, where: o.where }, limit, (s) => s.session_id);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'invalid_filter') {
      const pos = Number(err.body.position ?? 0);
      // Windowed around the spot, control characters as spaces: the caret lines up as for --filter.
      const caret = formatFilterError(o.where ?? '', { position: pos });
      throw new UsageError(`--where: ${err.message}\n${caret.split('\n').map((l) => `  ${l}`).join('\n')}`);
    }
    throw err;
  }
  const sessions = page.items;
  const emulated = sessions.length > 0 && (await emulatedClock(ctx, client));
  output(ctx, sessions, () => (sessions.length ? renderSessions(sessions, emulated, !!o.allSites) : 'No sessions match.'));
  tellMore(ctx, page, 'session', o.allSites ? '--where or --site' : '--where');
}
