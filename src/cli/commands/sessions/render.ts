import type { Session } from '../../../domain/session.js';
import { table } from '../../output.js';

/** `emulated`: the emulator's clock is frozen or manual, said in the CREATED header. */
export const renderSessions = (sessions: Session[], emulated = false) =>
  table(
    ['SESSION', emulated ? 'CREATED (UTC, EMULATED)' : 'CREATED (UTC)', 'RISK', 'ENGAGEMENT', 'CHANNEL', 'SOURCE', 'COUNTRY', 'DEVICE', 'PAGES', 'RISKS'],
    sessions.map((s) => [
      s.session_id, s.created_at.slice(0, 19), s.risk_level, s.engagement_level, s.channel, s.source, s.country_code,
      s.device_type, s.page_views, s.risks.join(',') || '-',
    ]),
  );
