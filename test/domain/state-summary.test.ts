import { describe, expect, it } from 'vitest';
import { stateSummary } from '../../src/domain/state-summary.js';

describe('stateSummary', () => {
  it('stateSummary: names every kind of thing a state holds, rules and saved views included', () => {
    expect(stateSummary({
      sites: 1, access_tokens: 2, rules: 3, sessions: 5, probes: 17, checks: 0, saved_views: 1, view_matches: 4,
      webhooks: 1, webhook_events: 6, webhook_attempts: 7, notifications: 2, meta: 1,
    })).toBe('1 site(s), 2 access token(s), 3 rule(s), 5 session(s), 17 probe(s), 0 check(s), 1 saved view(s), 1 webhook(s), 6 webhook event(s), 7 webhook attempt(s), 2 notification(s)');
  });

  it('stateSummary: sites, sessions, checks and webhooks are counted even at 0; other kinds when there are any', () => {
    expect(stateSummary({})).toBe('0 site(s), 0 session(s), 0 check(s), 0 webhook(s)');
    expect(stateSummary({ sites: 1, rules: 0, saved_views: 2 })).toBe('1 site(s), 0 session(s), 0 check(s), 2 saved view(s), 0 webhook(s)');
  });

  it('stateSummary: a table it has no name for is named by its table name; bookkeeping (view matches, meta) is not', () => {
    expect(stateSummary({ sites: 1, view_matches: 3, meta: 2, site_notes: 4 })).toBe('1 site(s), 0 session(s), 0 check(s), 0 webhook(s), 4 site note(s)');
  });
});
