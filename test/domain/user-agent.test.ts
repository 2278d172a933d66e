import { describe, it, expect } from 'vitest';
import { browserFamilyOf, parseUserAgent } from '../../src/domain/user-agent.js';

const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipad:
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  chromebook:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  googlebotSmartphone:
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  bingbot: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  duckduckbot: 'DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)',
  yandex: 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
  baidu: 'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
  applebot:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
  headless:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
  curl: 'curl/8.5.0',
  python: 'python-requests/2.31.0',
};

describe('parseUserAgent', () => {
  it('parseUserAgent: Chrome on Windows is a computer, not a bot', () => {
    expect(parseUserAgent(UA.chromeWindows)).toEqual({
      device_type: 'computer',
      browser_name: 'Chrome',
      browser_family: 'Chrome',
      browser_version: '126.0.0.0',
      os_family: 'Windows',
      os_version: '10',
      bot: false,
      crawler: false,
      headless: false,
    });
  });

  it('parseUserAgent: Safari on iPhone is mobile', () => {
    expect(parseUserAgent(UA.safariIphone)).toMatchObject({
      device_type: 'mobile',
      browser_name: 'Mobile Safari',
      browser_family: 'Safari',
      browser_version: '17.5',
      os_family: 'iOS',
      os_version: '17.5',
      bot: false,
    });
  });

  it('parseUserAgent: iPad is a tablet', () => {
    expect(parseUserAgent(UA.ipad)).toMatchObject({ device_type: 'tablet', browser_family: 'Safari', os_family: 'iOS' });
  });

  it('parseUserAgent: Firefox on Linux is a computer', () => {
    expect(parseUserAgent(UA.firefoxLinux)).toMatchObject({
      device_type: 'computer',
      browser_name: 'Firefox',
      browser_family: 'Firefox',
      browser_version: '128.0',
      os_family: 'Linux',
      os_version: null,
    });
  });

  it('parseUserAgent: Chrome on Android is mobile', () => {
    expect(parseUserAgent(UA.androidChrome)).toMatchObject({
      device_type: 'mobile',
      browser_family: 'Chrome',
      browser_version: '126.0.6478.71',
      os_family: 'Android',
      os_version: '14',
    });
  });

  it('parseUserAgent: Mac, Chrome OS are computers; Edge and Samsung keep their own family', () => {
    expect(parseUserAgent(UA.safariMac)).toMatchObject({ device_type: 'computer', browser_family: 'Safari', os_family: 'Mac OS' });
    expect(parseUserAgent(UA.chromebook)).toMatchObject({ device_type: 'computer', browser_family: 'Chrome' });
    expect(parseUserAgent(UA.edgeWindows)).toMatchObject({ browser_name: 'Edge', browser_family: 'Edge' });
    expect(parseUserAgent(UA.samsung)).toMatchObject({ browser_family: 'Samsung Internet', device_type: 'mobile' });
  });

  it('parseUserAgent: Googlebot and Bingbot are crawlers, not bots', () => {
    for (const ua of [UA.googlebot, UA.googlebotSmartphone, UA.bingbot]) {
      expect(parseUserAgent(ua)).toMatchObject({ crawler: true, bot: false, headless: false });
    }
  });

  it('parseUserAgent: other search-engine crawlers are crawlers', () => {
    for (const ua of [UA.duckduckbot, UA.yandex, UA.baidu, UA.applebot]) {
      expect(parseUserAgent(ua)).toMatchObject({ crawler: true, bot: false });
    }
  });

  it('parseUserAgent: HeadlessChrome is headless and a bot', () => {
    expect(parseUserAgent(UA.headless)).toMatchObject({
      headless: true,
      bot: true,
      crawler: false,
      browser_family: 'Chrome',
    });
  });

  it('parseUserAgent: HeadlessChrome claiming Googlebot is still a bot', () => {
    expect(parseUserAgent(`${UA.headless} (compatible; Googlebot/2.1)`)).toMatchObject({ bot: true, crawler: false });
  });

  it('parseUserAgent: curl and scripts are bots with no device', () => {
    for (const ua of [UA.curl, UA.python]) {
      expect(parseUserAgent(ua)).toMatchObject({ bot: true, crawler: false, headless: false, device_type: null });
    }
  });

  it('parseUserAgent: Chrome-Lighthouse (PageSpeed Insights) is a bot, not a crawler, and keeps its device fields', () => {
    const lighthouse = 'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse';
    expect(parseUserAgent(lighthouse)).toMatchObject({ bot: true, crawler: false, headless: false, browser_family: 'Chrome', device_type: 'mobile' });
  });

  it('parseUserAgent: null, empty or garbage gives nulls and no flags', () => {
    const empty = {
      device_type: null, browser_name: null, browser_family: null, browser_version: null,
      os_family: null, os_version: null, bot: false, crawler: false, headless: false,
    };
    expect(parseUserAgent(null)).toEqual(empty);
    expect(parseUserAgent('')).toEqual(empty);
    expect(parseUserAgent('   ')).toEqual(empty);
    expect(parseUserAgent('zzz')).toMatchObject({ device_type: null, browser_name: null });
  });

  it('parseUserAgent: cached results are not shared between callers', () => {
    const a = parseUserAgent(UA.chromeWindows);
    a.bot = true;
    expect(parseUserAgent(UA.chromeWindows).bot).toBe(false);
  });

  it('parseUserAgent: stays correct past the cache bound', () => {
    for (let i = 0; i < 1500; i++) parseUserAgent(`${UA.firefoxLinux} build/${i}`);
    expect(parseUserAgent(UA.safariIphone).device_type).toBe('mobile');
    expect(parseUserAgent(`${UA.firefoxLinux} build/3`).browser_family).toBe('Firefox');
  });

  it('parseUserAgent: very long UAs parse without throwing', () => {
    expect(parseUserAgent(UA.chromeWindows + ' x'.repeat(5000)).browser_family).toBe('Chrome');
  });
});

describe('browserFamilyOf', () => {
  it('browserFamilyOf: groups product variants', () => {
    expect(browserFamilyOf('Chrome WebView')).toBe('Chrome');
    expect(browserFamilyOf('Chromium')).toBe('Chrome');
    expect(browserFamilyOf('Chromecast')).toBe('Chromecast');
    expect(browserFamilyOf('Mobile Firefox')).toBe('Firefox');
    expect(browserFamilyOf('Firefox Focus')).toBe('Firefox');
    expect(browserFamilyOf('Opera Mini')).toBe('Opera');
    expect(browserFamilyOf('IE')).toBe('Internet Explorer');
    expect(browserFamilyOf('Facebook')).toBe('Facebook');
    expect(browserFamilyOf(null)).toBeNull();
  });
});
