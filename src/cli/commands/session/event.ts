import type { Session } from '../../../domain/session.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { eventNameArg } from '../../event-name.js';
import { keyValues, output, printable } from '../../output.js';
import { enc } from '../../site-ref.js';
import { sessionWebhookEvents, tellSetOff } from '../webhooks/set-off.js';
import { namedSessionNotFound } from './named-not-found.js';

export async function run(o: { args: string[] }, ctx: CliContext): Promise<void> {
  const id = o.args[0], name = eventNameArg('<name>', o.args[1]);
  // Characters as the API counts them (code points): 100 emoji are a name, not 200 characters.
  if ([...name].length > 100) throw new UsageError('<name>: a custom event name has 1 to 100 characters');
  const client = await ctx.client({ token: true });
  const before = ctx.config.quiet ? null : await sessionWebhookEvents(client, id);
  const result = await client.api<{ success: boolean }>('POST', `/session/${enc(id)}/event`, { body: { name } }).catch(namedSessionNotFound(id));
  // A custom event sets off a webhook only through a derived change (a conversion): say when it did.
  if (before) {
    const seen = new Set(before.map((e) => e.webhook_event_id));
    tellSetOff(ctx, ((await sessionWebhookEvents(client, id)) ?? []).filter((e) => !seen.has(e.webhook_event_id)));
  }
  if (ctx.config.json) return output(ctx, result, () => '');
  // Show what the event changed: the session's events and engagement.
  const s = await client.api<Session>('GET', `/session/${enc(id)}`);
  output(ctx, result, () => [
    // Names are typed by anyone (visitors too): escaped, as `session get` shows them.
    `Added "${printable(name)}" to ${id}`,
    keyValues([['custom_events', s.custom_events], ['engagement_level', s.engagement_level]]),
  ]);
}
