import type { ChalkInstance } from 'chalk';
import type { Session } from '../../../domain/session.js';
import { counted, keyValues, printable } from '../../output.js';
import { riskColour } from '../../style.js';
import { timeFormat, type TimeFormat } from '../../time-display.js';

/** The traffic-source details, in --json's order and with its names; only those that are set are shown. */
const SOURCE_DETAILS = [
  'source_subtype', 'source_id', 'source_medium', 'source_campaign', 'source_group', 'source_content', 'source_term', 'source_session_id',
] as const;

/** A readable summary of a session: who, from where, on what, and how risky. */
export function renderSession(s: Session, c: ChalkInstance, time: TimeFormat = timeFormat(false)): string {
  const head = `${c.bold(printable(s.session_id))}  ${riskColour(c, s.risk_level)}  ${printable(s.engagement_level ?? '-')}  ${printable(s.channel ?? '-')}`;
  const set = (key: string, v: unknown): Array<[string, unknown]> => (v == null ? [] : [[key, v]]);
  return [
    head,
    keyValues([
      ['site', `${s.site_name ?? ''} (${s.site_id})`],
      ['created', time(s.created_at)],
      ['updated', time(s.updated_at)],
      ['risks', s.risks],
      ['actions', s.actions],
      ...set('value', s.value),
      ['visit', `${counted(s.page_views ?? 0, 'page view')}, ${s.duration ?? 0}s, ${s.entry_hostname ?? ''}${s.entry_path ?? ''} → ${s.exit_path ?? '-'}`],
      ['source', s.source],
      ...SOURCE_DETAILS.flatMap((k) => set(k, s[k])),
      ['referrer', s.referrer],
      ['ip', s.ip ? `${s.ip} (${[s.city, s.country_code].filter(Boolean).join(', ') || 'no geo'}${s.isp ? `, ${s.isp}` : ''})` : null],
      ['device', [s.device_type, s.browser_name && `${s.browser_name} ${s.browser_version ?? ''}`.trim(), s.os_family && `${s.os_family} ${s.os_version ?? ''}`.trim()].filter(Boolean).join(', ') || null],
      ['language', s.language],
      ['timezone', s.timezone],
      ['fingerprint', s.fingerprint],
      ...set('returned', s.returned == null ? null : s.returned ? 'yes (a returning visitor)' : 'no'),
      ['custom_events', s.custom_events],
    ]),
  ].join('\n');
}
