// A session with only its site, id and times: every other field starts empty.
import type { Session } from '../domain/session.js';
import type { Site } from '../domain/site.js';

export function emptySession(site: Site, sessionId: string, at: string): Session {
  return {
    site_id: site.site_id, site_name: site.name, session_id: sessionId, created_at: at, updated_at: at,
    duration: null, page_views: null, entry_hostname: null, entry_path: null, exit_hostname: null, exit_path: null,
    fingerprint: null, returned: null, risk_level: null, engagement_level: null, risks: [], actions: [],
    custom_events: [], value: null, channel: null, source: null, source_subtype: null, source_id: null,
    source_medium: null, source_campaign: null, source_group: null, source_content: null, source_term: null,
    source_session_id: null, referrer: null, referrer_domain: null, ip: null, ip_network: null, isp: null,
    country_code: null, city: null, device_type: null, browser_name: null, browser_family: null,
    browser_version: null, os_family: null, os_version: null, language: null, timezone: null, user_agent: null,
  };
}
