// The Session resource exactly as the public API returns it (service description, Session table).
// Every field is always present; null where unknown.

export const RISK_LEVELS = ['normal', 'unwanted', 'suspicious', 'invalid'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export const ENGAGEMENT_LEVELS = ['bounced', 'normal', 'engaged', 'converted'] as const;
export type EngagementLevel = (typeof ENGAGEMENT_LEVELS)[number];

export const CHANNELS = ['paid', 'other', 'referral', 'direct'] as const;
export type Channel = (typeof CHANNELS)[number];

export const DEVICE_TYPES = ['mobile', 'tablet', 'computer'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export interface Session {
  site_id: string;
  site_name: string | null;
  session_id: string;
  created_at: string;
  updated_at: string;
  duration: number | null;
  page_views: number | null;
  entry_hostname: string | null;
  entry_path: string | null;
  exit_hostname: string | null;
  exit_path: string | null;
  fingerprint: string | null;
  returned: boolean | null;
  risk_level: RiskLevel | null;
  engagement_level: EngagementLevel | null;
  risks: string[];
  actions: string[];
  custom_events: string[];
  value: number | null;
  channel: Channel | null;
  source: string | null;
  source_subtype: string | null;
  source_id: string | null;
  source_medium: string | null;
  source_campaign: string | null;
  source_group: string | null;
  source_content: string | null;
  source_term: string | null;
  source_session_id: string | null;
  referrer: string | null;
  referrer_domain: string | null;
  ip: string | null;
  ip_network: string | null;
  isp: string | null;
  country_code: string | null;
  city: string | null;
  device_type: DeviceType | null;
  browser_name: string | null;
  browser_family: string | null;
  browser_version: string | null;
  os_family: string | null;
  os_version: string | null;
  language: string | null;
  timezone: string | null;
  user_agent: string | null;
}

/** Field names in the order the API documents them (used by OpenAPI, filters, console). */
export const SESSION_FIELDS = [
  'site_id', 'site_name', 'session_id', 'created_at', 'updated_at', 'duration', 'page_views',
  'entry_hostname', 'entry_path', 'exit_hostname', 'exit_path', 'fingerprint', 'returned',
  'risk_level', 'engagement_level', 'risks', 'actions', 'custom_events', 'value', 'channel',
  'source', 'source_subtype', 'source_id', 'source_medium', 'source_campaign', 'source_group',
  'source_content', 'source_term', 'source_session_id', 'referrer', 'referrer_domain', 'ip',
  'ip_network', 'isp', 'country_code', 'city', 'device_type', 'browser_name', 'browser_family',
  'browser_version', 'os_family', 'os_version', 'language', 'timezone', 'user_agent',
] as const satisfies readonly (keyof Session)[];

export type SessionField = (typeof SESSION_FIELDS)[number];

export type FieldKind = 'string' | 'number' | 'boolean' | 'array';

/** JSON kind of each Session field, for the filter language and the OpenAPI document. */
export const SESSION_FIELD_KINDS: Record<SessionField, FieldKind> = Object.fromEntries(
  SESSION_FIELDS.map((f) => [
    f,
    f === 'risks' || f === 'actions' || f === 'custom_events'
      ? 'array'
      : f === 'duration' || f === 'page_views' || f === 'value'
        ? 'number'
        : f === 'returned'
          ? 'boolean'
          : 'string',
  ]),
) as Record<SessionField, FieldKind>;

/** What one page view tells us (posted by the agent, or built by `vtr sessions create/simulate`). */
export interface PageView {
  url: string;
  referrer?: string | null;
  user_agent?: string | null;
  ip?: string | null;
  language?: string | null;
  timezone?: string | null;
  fingerprint?: string | null;
  screen?: string | null;
}
