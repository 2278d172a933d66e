import { describe, it, expect } from 'vitest';
import {
  CLICK_ID_PARAMS,
  clickIdOf,
  deriveTrafficSource,
  normaliseHost,
  referrerGroupOf,
} from '../../src/domain/traffic-source.js';

describe('deriveTrafficSource', () => {
  it('deriveTrafficSource: gclid makes a paid google search session', () => {
    const s = deriveTrafficSource('https://shop.example/p?gclid=abc123&utm_campaign=spring', null);
    expect(s).toEqual({
      channel: 'paid',
      source: 'google',
      source_subtype: 'gclid',
      source_id: 'abc123',
      source_medium: null,
      source_campaign: 'spring',
      source_group: 'paid_search',
      source_content: null,
      source_term: null,
      referrer: null,
      referrer_domain: null,
    });
  });

  it('deriveTrafficSource: every click id maps to its network and group', () => {
    for (const { param, source, group } of CLICK_ID_PARAMS) {
      const s = deriveTrafficSource(`https://shop.example/?${param}=X1`, null);
      expect(s.channel).toBe('paid');
      expect(s.source).toBe(source);
      expect(s.source_group).toBe(group);
      expect(s.source_subtype).toBe(param);
      expect(s.source_id).toBe('X1');
    }
    const sources = Object.fromEntries(CLICK_ID_PARAMS.map((c) => [c.param, c.source]));
    expect(sources).toEqual({
      gclid: 'google', gbraid: 'google', wbraid: 'google', msclkid: 'microsoft',
      fbclid: 'meta', ttclid: 'tiktok', li_fat_id: 'linkedin',
    });
  });

  it('deriveTrafficSource: click id beats utm_source and referrer, utm_* still fill the fields', () => {
    const s = deriveTrafficSource(
      'https://shop.example/?fbclid=F&utm_source=newsletter&utm_medium=email&utm_content=hero&utm_term=shoes',
      'https://www.facebook.com/',
    );
    expect(s.channel).toBe('paid');
    expect(s.source).toBe('meta');
    expect(s.source_group).toBe('paid_social');
    expect(s.source_medium).toBe('email');
    expect(s.source_content).toBe('hero');
    expect(s.source_term).toBe('shoes');
    expect(s.referrer_domain).toBe('facebook.com');
  });

  it('deriveTrafficSource: first click id in table order wins', () => {
    const s = deriveTrafficSource('https://shop.example/?fbclid=F&gclid=G', null);
    expect(s.source).toBe('google');
    expect(s.source_id).toBe('G');
  });

  it('deriveTrafficSource: empty click id is ignored', () => {
    expect(deriveTrafficSource('https://shop.example/?gclid=', null).channel).toBe('direct');
  });

  it('deriveTrafficSource: utm_source makes channel other', () => {
    const s = deriveTrafficSource(
      'https://shop.example/?utm_source=newsletter&utm_medium=email&utm_campaign=june',
      'https://mail.example.org/inbox',
    );
    expect(s).toMatchObject({
      channel: 'other',
      source: 'newsletter',
      source_subtype: null,
      source_id: null,
      source_group: null,
      source_medium: 'email',
      source_campaign: 'june',
      referrer: 'https://mail.example.org/inbox',
      referrer_domain: 'mail.example.org',
    });
  });

  it('deriveTrafficSource: external referrer makes a referral from its domain', () => {
    const s = deriveTrafficSource('https://shop.example/', 'https://WWW.Blog.Example.org/post?x=1');
    expect(s).toMatchObject({
      channel: 'referral',
      source: 'blog.example.org',
      source_group: 'referral',
      referrer: 'https://WWW.Blog.Example.org/post?x=1',
      referrer_domain: 'blog.example.org',
    });
  });

  it('deriveTrafficSource: search and social referrers get organic groups', () => {
    expect(deriveTrafficSource('https://shop.example/', 'https://www.google.co.uk/').source_group).toBe('organic_search');
    expect(deriveTrafficSource('https://shop.example/', 'https://l.facebook.com/').source_group).toBe('organic_social');
    expect(deriveTrafficSource('https://shop.example/', 'https://t.co/abc').source_group).toBe('organic_social');
  });

  it('deriveTrafficSource: same-host referrer (ignoring www.) is direct', () => {
    const s = deriveTrafficSource('https://www.shop.example/b', 'https://shop.example/a');
    expect(s.channel).toBe('direct');
    expect(s.source).toBeNull();
    expect(s.referrer_domain).toBe('shop.example');
  });

  it("deriveTrafficSource: referrer on the site's own hostname is direct", () => {
    const s = deriveTrafficSource('https://app.shop.example/', 'https://shop.example/', 'www.shop.example');
    expect(s.channel).toBe('direct');
  });

  it('deriveTrafficSource: no referrer and no parameters is direct', () => {
    const s = deriveTrafficSource('https://shop.example/', null);
    expect(s.channel).toBe('direct');
    expect(Object.entries(s).filter(([k]) => k !== 'channel').every(([, v]) => v === null)).toBe(true);
  });

  it('deriveTrafficSource: relative landing URL keeps its query parameters', () => {
    const s = deriveTrafficSource('/pricing?utm_source=x', 'https://other.example/');
    expect(s.channel).toBe('other');
    expect(s.source).toBe('x');
  });

  it('deriveTrafficSource: malformed URL and referrer never throw and give no data', () => {
    const s = deriveTrafficSource('not a url ::: ?gclid=1', 'also :// bad');
    expect(s.channel).toBe('direct');
    expect(s.referrer).toBeNull();
    expect(s.referrer_domain).toBeNull();
    expect(() => deriveTrafficSource('', '')).not.toThrow();
    expect(() => deriveTrafficSource('http://[::1', 'http://%%')).not.toThrow();
  });

  it('deriveTrafficSource: malformed landing URL still honours a valid external referrer', () => {
    const s = deriveTrafficSource('%%%', 'https://news.example/');
    expect(s.channel).toBe('referral');
    expect(s.source).toBe('news.example');
  });

  it('deriveTrafficSource: decodes encoded parameter values', () => {
    const s = deriveTrafficSource('https://shop.example/?utm_source=news%20letter&utm_term=a+b', null);
    expect(s.source).toBe('news letter');
    expect(s.source_term).toBe('a b');
  });
});

describe('clickIdOf', () => {
  it('clickIdOf: returns the click id parameter and value', () => {
    expect(clickIdOf('https://shop.example/?x=1&msclkid=M9')).toEqual({ param: 'msclkid', value: 'M9' });
    expect(clickIdOf('/landing?li_fat_id=L')).toEqual({ param: 'li_fat_id', value: 'L' });
  });

  it('clickIdOf: null when absent, empty or malformed', () => {
    expect(clickIdOf('https://shop.example/?utm_source=x')).toBeNull();
    expect(clickIdOf('https://shop.example/?gclid=')).toBeNull();
    expect(clickIdOf('::nonsense')).toBeNull();
  });
});

describe('helpers', () => {
  it('normaliseHost: lowercases and strips www. and a trailing dot', () => {
    expect(normaliseHost('WWW.Example.COM.')).toBe('example.com');
    expect(normaliseHost('')).toBeNull();
    expect(normaliseHost(null)).toBeNull();
  });

  it('referrerGroupOf: suffix rules match only the bare name', () => {
    expect(referrerGroupOf('google.com')).toBe('organic_search');
    expect(referrerGroupOf('mail.google.com')).toBe('referral');
    expect(referrerGroupOf('googleblog.com')).toBe('referral');
    expect(referrerGroupOf('notx.com')).toBe('referral');
  });

  it('referrerGroupOf: google.* and yandex.* are the search engines under a country domain, not a site whose name starts with google.', () => {
    for (const d of ['google.co.uk', 'google.com.au', 'google.co.jp', 'google.de', 'yandex.ru', 'yandex.com.tr']) {
      expect(referrerGroupOf(d), d).toBe('organic_search');
    }
    for (const d of ['google.github.io', 'google.evil.com', 'google.example.org', 'yandex.someblog.net', 'google.blogspot.com']) {
      expect(referrerGroupOf(d), d).toBe('referral');
    }
    expect(deriveTrafficSource('https://shop.example/', 'https://google.github.io/styleguide/').source_group).toBe('referral');
  });
});
