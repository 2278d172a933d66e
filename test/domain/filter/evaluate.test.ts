import { describe, expect, it } from 'vitest';
import { matchesFilter, parseFilter } from '../../../src/domain/filter/index.js';
import type { Session } from '../../../src/domain/session.js';
import { session } from './helpers.js';

const match = (src: string, s: Session) => matchesFilter(parseFilter(src), s);

describe('matchesFilter', () => {
  const s = session({
    channel: 'paid',
    risk_level: 'suspicious',
    risks: ['vpn', 'anonymous'],
    page_views: 3,
    value: 12.5,
    returned: false,
    city: null,
    user_agent: 'Mozilla/5.0 HeadlessChrome/120',
  });

  it('=: matches equal values; case-sensitive', () => {
    expect(match('channel = paid', s)).toBe(true);
    expect(match('channel = direct', s)).toBe(false);
    expect(match('user_agent = "mozilla/5.0 headlesschrome/120"', s)).toBe(false);
    expect(match('returned = false', s)).toBe(true);
    expect(match('page_views = "3"', s)).toBe(true);
  });

  it('country_code: compared without regard to case, as a visitor from DE is one from de', () => {
    const de = session({ country_code: 'DE' });
    expect(match('country_code = de', de)).toBe(true);
    expect(match('country_code in (fr, "De")', de)).toBe(true);
    expect(match('country_code != de', de)).toBe(false);
    expect(match('country_code not in (de)', de)).toBe(false);
    expect(match('country_code = fr', de)).toBe(false);
  });

  it('ordered ops: compare numbers and timestamps', () => {
    expect(match('page_views > 2 and page_views < 4 and page_views >= 3 and page_views <= 3', s)).toBe(true);
    expect(match('value > 12.5', s)).toBe(false);
    expect(match('created_at >= 2025-01-02 and created_at < "2025-01-03"', s)).toBe(true);
  });

  it('in: matches any listed value; not in negates', () => {
    expect(match('risk_level in (suspicious, invalid)', s)).toBe(true);
    expect(match('risk_level not in (suspicious, invalid)', s)).toBe(false);
    expect(match('page_views in (1, 2, 3)', s)).toBe(true);
  });

  it('contains: element equality on arrays, substring on text', () => {
    expect(match('risks contains vpn', s)).toBe(true);
    expect(match('custom_events contains conv', { ...s, custom_events: ['conversion'] })).toBe(false);
    expect(match('risks not contains tor', s)).toBe(true);
    expect(match('user_agent contains Headless', s)).toBe(true);
    expect(match('user_agent contains headless', s)).toBe(false);
  });

  it('null: a null field fails =, <, in, contains and passes !=, not in, not contains', () => {
    expect(match('city is null', s)).toBe(true);
    expect(match('city is not null', s)).toBe(false);
    expect(match('city = Paris', s)).toBe(false);
    expect(match('city != Paris', s)).toBe(true);
    expect(match('city in (Paris)', s)).toBe(false);
    expect(match('city not in (Paris)', s)).toBe(true);
    expect(match('city contains P', s)).toBe(false);
    expect(match('city not contains P', s)).toBe(true);
    expect(match('not (city = Paris)', s)).toBe(true);
    const n = session({ page_views: null });
    expect(match('page_views < 5', n)).toBe(false);
    expect(match('page_views >= 5', n)).toBe(false);
    expect(match('returned = false', n)).toBe(false);
    expect(match('returned != true', n)).toBe(true);
  });

  it('precedence: the contract example', () => {
    const src = 'risk_level in (suspicious, invalid) and channel = paid and risks contains vpn';
    expect(match(src, s)).toBe(true);
    expect(match(src, { ...s, channel: 'direct' })).toBe(false);
    expect(match('channel = direct and returned = true or risks contains vpn', s)).toBe(true);
    expect(match('channel = direct and (returned = true or risks contains vpn)', s)).toBe(false);
  });
});
