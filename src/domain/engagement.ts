// engagement_level of a session (contract §4).

import type { EngagementLevel } from './session.js';

export const DEFAULT_CONVERSION_EVENTS: readonly string[] = ['conversion'];
export const DEFAULT_BOUNCE_SECONDS = 10;
/** A session with at least this many page views, or this many seconds, is `engaged`. */
export const ENGAGED_PAGE_VIEWS = 3;
export const ENGAGED_SECONDS = 60;

export interface EngagementInput {
  page_views: number | null;
  duration: number | null;
  custom_events: readonly string[];
}

export interface EngagementSettings {
  /** null/undefined → the default `["conversion"]`; an empty list means nothing converts. */
  conversion_events?: readonly string[] | null;
  /** null/undefined → 10 s. */
  bounce_seconds?: number | null;
}

export function engagementLevel(
  session: EngagementInput,
  settings: EngagementSettings = {},
): EngagementLevel {
  const conversions = conversionEventsOf(settings);
  return engagementGiven(session, session.custom_events.some((e) => conversions.includes(e)), settings);
}

/** The custom events that mean "converted" under these settings. */
export function conversionEventsOf(settings: EngagementSettings = {}): readonly string[] {
  return settings.conversion_events ?? DEFAULT_CONVERSION_EVENTS;
}

/** engagementLevel, for a caller that already knows whether a conversion event happened. */
export function engagementGiven(
  session: Pick<EngagementInput, 'page_views' | 'duration'>,
  converted: boolean,
  settings: EngagementSettings = {},
): EngagementLevel {
  const bounceSeconds = settings.bounce_seconds ?? DEFAULT_BOUNCE_SECONDS;
  // Missing counts mean "nothing recorded yet", not unknown: a fresh single-view session has no duration.
  const pageViews = session.page_views ?? 0;
  const duration = session.duration ?? 0;

  if (converted) return 'converted';
  if (pageViews === 1 && duration < bounceSeconds) return 'bounced';
  if (pageViews >= ENGAGED_PAGE_VIEWS || duration >= ENGAGED_SECONDS) return 'engaged';
  return 'normal';
}
