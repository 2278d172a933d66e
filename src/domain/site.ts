export const PLANS = ['free', 'paid'] as const;
export type Plan = (typeof PLANS)[number];

export interface Site {
  site_id: string;
  name: string;
  plan: Plan;
  country: string | null;
  owner_email: string | null;
  site_key: string;
  secret_key: string;
  conversion_events: string[];
  bounce_seconds: number;
  excluded_countries: string[];
  ip_allowlist: string[];
  is_default: boolean;
  created_at: string;
}

export interface AccessToken {
  token: string;
  site_id: string;
  created_at: string;
  revoked_at: string | null;
}

export const DEFAULT_CONVERSION_EVENTS = ['conversion'];
export const DEFAULT_BOUNCE_SECONDS = 10;
export const DEFAULT_SITE_NAME = 'Untitled site';
