import type { ChalkInstance } from 'chalk';
import type { Session } from '../../../domain/session.js';
import { keyValues } from '../../output.js';
import { riskColour } from '../../style.js';

/** A readable summary of a session: who, from where, on what, and how risky. */
export function renderSession(s: Session, c: ChalkInstance): string {
  const head = `${c.bold(s.session_id)}  ${riskColour(c, s.risk_level)}  ${s.engagement_level ?? '-'}  ${s.channel ?? '-'}`;
  return [
    head,
    keyValues([
      ['site', `${s.site_name ?? ''} (${s.site_id})`],
      ['created', s.created_at],
      ['updated', s.updated_at],
      ['risks', s.risks],
      ['visit', `${s.page_views ?? 0} page views, ${s.duration ?? 0}s, ${s.entry_hostname ?? ''}${s.entry_path ?? ''} → ${s.exit_path ?? '-'}`],
      ['source', [s.source, s.source_medium, s.source_campaign].filter(Boolean).join(' / ') || null],
      ['referrer', s.referrer],
      ['ip', s.ip ? `${s.ip} (${[s.city, s.country_code].filter(Boolean).join(', ') || 'no geo'}${s.isp ? `, ${s.isp}` : ''})` : null],
      ['device', [s.device_type, s.browser_name && `${s.browser_name} ${s.browser_version ?? ''}`.trim(), s.os_family && `${s.os_family} ${s.os_version ?? ''}`.trim()].filter(Boolean).join(', ') || null],
      ['language', s.language],
      ['timezone', s.timezone],
      ['fingerprint', `${s.fingerprint ?? '-'}${s.returned ? ' (returning visitor)' : ''}`],
      ['custom_events', s.custom_events],
    ]),
  ].join('\n');
}
