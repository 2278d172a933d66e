import { describe, expect, it } from 'vitest';
import { changeTriggersViews, urlShown } from '../../src/domain/webhooks.js';

describe('changeTriggersViews', () => {
  const before = { session_id: 's', custom_events: ['a'], value: 1, updated_at: 't1', engagement_level: 'engaged', risks: ['vpn'] };
  it('changeTriggersViews: any change but a custom event is evaluated', () => {
    expect(changeTriggersViews({ ...before, page_views: 2 }, before)).toBe(true);
    expect(changeTriggersViews(before, null, 'custom_event')).toBe(true);
  });
  it("changeTriggersViews: a custom event's own fields alone are not a trigger", () => {
    const after = { ...before, custom_events: ['a', 'b'], value: 3, updated_at: 't2', risks: ['vpn'] };
    expect(changeTriggersViews(after, before, 'custom_event')).toBe(false);
  });
  it('changeTriggersViews: a custom event that changed a derived field is a trigger', () => {
    expect(changeTriggersViews({ ...before, engagement_level: 'converted' }, before, 'custom_event')).toBe(true);
    expect(changeTriggersViews({ ...before, risks: ['vpn', 'tor'] }, before, 'custom_event')).toBe(true);
  });
});

describe('urlShown', () => {
  it('urlShown: masks the password of a URL with credentials, nothing else', () => {
    expect(urlShown('https://user:s3cret@hooks.example.com/in')).toBe('https://user:***@hooks.example.com/in');
    expect(urlShown('https://:s3cret@hooks.example.com/in')).toBe('https://:***@hooks.example.com/in');
    expect(urlShown('https://user@hooks.example.com/in?token=abc')).toBe('https://user@hooks.example.com/in?token=abc');
    expect(urlShown('https://hooks.example.com/in?to=a@b.c')).toBe('https://hooks.example.com/in?to=a@b.c');
  });
  it('urlShown: masks the password of text that does not parse as a URL too', () => {
    expect(urlShown('http://user:s3cret@exa mple.com/in')).toBe('http://user:***@exa mple.com/in');
    expect(urlShown('http://host:port/in?to=a@b.c')).toBe('http://host:port/in?to=a@b.c');
  });
});
