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
});
