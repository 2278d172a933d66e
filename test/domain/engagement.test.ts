import { describe, it, expect } from 'vitest';
import { engagementLevel } from '../../src/domain/engagement.js';

const s = (page_views: number | null, duration: number | null, custom_events: string[] = []) => ({
  page_views,
  duration,
  custom_events,
});

describe('engagementLevel', () => {
  it('engagementLevel: default conversion event converts, whatever else happened', () => {
    expect(engagementLevel(s(1, 0, ['conversion']))).toBe('converted');
  });

  it("engagementLevel: site's conversion events replace the default", () => {
    const site = { conversion_events: ['purchase'], bounce_seconds: 10 };
    expect(engagementLevel(s(1, 0, ['purchase']), site)).toBe('converted');
    expect(engagementLevel(s(1, 0, ['conversion']), site)).toBe('bounced');
    expect(engagementLevel(s(1, 0, ['purchase']), { conversion_events: [] })).toBe('bounced');
  });

  it('engagementLevel: non-conversion custom events do not convert', () => {
    expect(engagementLevel(s(2, 20, ['signup_started']))).toBe('normal');
  });

  it('engagementLevel: one page view under the bounce threshold bounces', () => {
    expect(engagementLevel(s(1, 9))).toBe('bounced');
    expect(engagementLevel(s(1, null))).toBe('bounced');
    expect(engagementLevel(s(1, 10))).toBe('normal');
  });

  it("engagementLevel: site's bounce threshold applies", () => {
    expect(engagementLevel(s(1, 25), { bounce_seconds: 30 })).toBe('bounced');
    expect(engagementLevel(s(1, 5), { bounce_seconds: 5 })).toBe('normal');
  });

  it('engagementLevel: two quick page views are normal, not bounced', () => {
    expect(engagementLevel(s(2, 1))).toBe('normal');
  });

  it('engagementLevel: 3+ page views or 60+ seconds is engaged', () => {
    expect(engagementLevel(s(3, 5))).toBe('engaged');
    expect(engagementLevel(s(2, 60))).toBe('engaged');
    expect(engagementLevel(s(1, 60))).toBe('engaged');
    expect(engagementLevel(s(2, 59))).toBe('normal');
  });

  it('engagementLevel: one long view beyond a huge bounce threshold still bounces', () => {
    expect(engagementLevel(s(1, 90), { bounce_seconds: 120 })).toBe('bounced');
  });

  it('engagementLevel: nothing recorded is normal', () => {
    expect(engagementLevel(s(null, null))).toBe('normal');
    expect(engagementLevel(s(0, 0))).toBe('normal');
  });
});
