import type { Session } from '../../../domain/session.js';
import { table } from '../../output.js';

/**
 * `emulated`: the emulator's clock is frozen or manual, said in the CREATED header. `withSite`: the
 * list spans sites (--all-sites), so each row says whose session it is (`session get` needs --site).
 */
export const renderSessions = (sessions: Session[], emulated = false, withSite = false) =>
  table(
    [
      'SESSION', ...(withSite ? ['SITE'] : []), emulated ? 'CREATED (UTC, EMULATED)' : 'CREATED (UTC)', 'RISK', 'ENGAGEMENT', 'CHANNEL',
      'SOURCE', 'COUNTRY', 'DEVICE', 'PAGES', 'RISKS',
    ],
    sessions.map((s) => [
      s.session_id, ...(withSite ? [s.site_id] : []), s.created_at.slice(0, 19), s.risk_level, s.engagement_level, s.channel, s.source,
      s.country_code, s.device_type, s.page_views, s.risks.join(',') || '-',
    ]),
  );
