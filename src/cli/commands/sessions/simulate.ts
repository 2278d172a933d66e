// `vtr sessions simulate`: seeded, realistic mixed traffic on a site, summed up per channel, risk
// level, engagement and device, with how long it took.
import { createApiClient } from '../../../client/api-client.js';
import type { CliContext } from '../../context.js';
import { wholeNumber } from '../../whole-number.js';
import { counted, output, printable, styled, table } from '../../output.js';
import { enc } from '../../site-ref.js';
import { riskColour, style } from '../../style.js';
import { isNumericSeed } from '../../../domain/seed.js';

export interface SimulateOptions {
  count?: string;
  seed?: string;
  site?: string;
}

const MAX = 1_000_000;

interface Summary {
  site_id: string; count: number; seed: number; page_views: number; custom_events: number; returning_visitors: number;
  duration_ms: number; sessions_per_second: number; sample_session_ids: string[];
  by_channel: Record<string, number>; by_risk_level: Record<string, number>; by_engagement_level: Record<string, number>;
  by_device_type: Record<string, number>; by_country: Record<string, number>;
}

const pct = (n: number, total: number) => `${n} (${total ? Math.round((n / total) * 100) : 0}%)`;

export async function run(o: SimulateOptions, ctx: CliContext): Promise<void> {
  // Missing: a prompt on a terminal, else a usage error naming the flag.
  const given = o.count ?? (await ctx.prompter.input('--count <n> is required: how many sessions to simulate', { default: '100' }));
  const count = wholeNumber('--count', given, 1, MAX);
  // Digits stay a number (the API's integer seed); any other text is a seed too.
  const seed = o.seed === undefined ? undefined : isNumericSeed(o.seed) ? Number(o.seed) : o.seed;
  const client = await ctx.client();
  // Looked up before the progress line: nothing claims to start on a site that does not exist.
  const { site_id: site } = await client.admin<{ site_id: string }>('GET', `/sites/${enc(o.site ?? ctx.config.site ?? 'default')}`);
  if (!ctx.config.json) ctx.info(`Simulating ${counted(count, 'session')} on ${site}…`);
  // A million sessions take minutes: wait for the answer longer than the client's default.
  const patient = createApiClient({ ...client.options, timeoutMs: 60 * 60_000 });
  const s = await patient.admin<Summary>('POST', `/sites/${enc(site)}/sessions/simulate`, { body: { count, ...(seed !== undefined ? { seed } : {}) } });
  const c = style(ctx);
  output(ctx, s, () => {
    const group = (title: string, m: Record<string, number>, colour = false) =>
      [title, styled(Object.entries(m).map(([k, n]) => `${colour ? riskColour(c, k) : printable(k)} ${pct(n, s.count)}`).join('  '))];
    const top = Object.fromEntries(Object.entries(s.by_country).slice(0, 8));
    return [
      `Simulated ${counted(s.count, 'session')} (${counted(s.page_views, 'page view')}, ${counted(s.custom_events, 'custom event')}, ${s.returning_visitors} returning) on ${s.site_id}`,
      `in ${(s.duration_ms / 1000).toFixed(1)}s (${s.sessions_per_second} sessions/s), seed ${s.seed}`,
      '',
      table(['', ''], [
        group('channel', s.by_channel), group('risk level', s.by_risk_level, true), group('engagement', s.by_engagement_level),
        group('device', s.by_device_type), group('top countries', top),
      ]).split('\n').slice(1).join('\n'),
    ];
  });
  if (!ctx.config.json) {
    // The hints are commands to paste: they act on the same site as this one.
    const siteFlag = o.site ? ` --site ${o.site}` : '';
    ctx.info(`\nSame traffic again: vtr sessions simulate --count ${s.count} --seed ${s.seed}${siteFlag}`);
    if (s.sample_session_ids[0]) ctx.info(`Look at one: vtr session get ${s.sample_session_ids[0]}${siteFlag}`);
  }
}
