import { describe, expect, it } from 'vitest';
import { canonicalLanguage, canonicalTimezone } from '../../src/domain/locale.js';

describe('locale', () => {
  it('canonicalLanguage: a language tag in its canonical spelling; anything else is null', () => {
    expect(canonicalLanguage('en-us')).toBe('en-US');
    expect(canonicalLanguage('zh-Hant-TW')).toBe('zh-Hant-TW');
    expect(canonicalLanguage('!!')).toBeNull();
    expect(canonicalLanguage('<script>not a tag')).toBeNull();
    expect(canonicalLanguage('')).toBeNull();
    expect(canonicalLanguage(null)).toBeNull();
  });

  it('canonicalTimezone: a tz database name in its canonical spelling; anything else is null', () => {
    expect(canonicalTimezone('europe/london')).toBe('Europe/London');
    expect(canonicalTimezone('America/New_York')).toBe('America/New_York');
    expect(canonicalTimezone('UTC')).toBe('UTC');
    expect(canonicalTimezone('Not/AZone')).toBeNull();
    expect(canonicalTimezone('garbage zone')).toBeNull();
    expect(canonicalTimezone(undefined)).toBeNull();
  });

  it("canonicalTimezone: the tz database's current name, never an older one Intl still prefers", () => {
    // What was asked for comes back, and a browser reporting the old name gets the current one too.
    for (const [sent, stored] of [
      ['Asia/Kolkata', 'Asia/Kolkata'], ['Asia/Calcutta', 'Asia/Kolkata'], ['asia/kolkata', 'Asia/Kolkata'],
      ['Europe/Kyiv', 'Europe/Kyiv'], ['Europe/Kiev', 'Europe/Kyiv'], ['Asia/Ho_Chi_Minh', 'Asia/Ho_Chi_Minh'],
      ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'], ['America/Nuuk', 'America/Nuuk'],
      ['Pacific/Kanton', 'Pacific/Kanton'], ['US/Eastern', 'America/New_York'],
      // UTC as every browser reports it (ECMA-402's name for Etc/UTC, Etc/GMT and GMT).
      ['Etc/UTC', 'UTC'], ['GMT', 'UTC'],
    ]) {
      expect(canonicalTimezone(sent), sent).toBe(stored);
    }
  });
});
