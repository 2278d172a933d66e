import type { Session } from '../../../domain/session.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { enc } from '../../site-ref.js';
import { style } from '../../style.js';
import { emulatedClock, timeFormat } from '../../time-display.js';
import { namedSessionNotFound } from './named-not-found.js';
import { renderSession } from './render.js';

export async function run(o: { args: string[] }, ctx: CliContext): Promise<void> {
  const client = await ctx.client({ token: true });
  const session = await client.api<Session>('GET', `/session/${enc(o.args[0])}`).catch(namedSessionNotFound(o.args[0]));
  const time = timeFormat(await emulatedClock(ctx, client));
  output(ctx, session, () => renderSession(session, style(ctx), time));
}
