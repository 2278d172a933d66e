// Reserved test values (contract §4), like a payment provider's test cards: each input always gives
// the result listed. `vtr testvalues` prints this table; test/domain/test-values.test.ts checks
// every row against the real checks, so the table cannot drift from the behaviour.
import { TEST_IP_RANGES } from './ip-intel.js';
import { orderRisks, POOR_REPUTATION_REFERRERS } from './risk.js';

export const TEST_USER_AGENTS = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  chromeMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  firefoxLinux: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  samsungAndroid: 'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  androidTablet: 'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  headlessChrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  pythonRequests: 'python-requests/2.32.3',
  curl: 'curl/8.5.0',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  bingbot: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
} as const;

/** Loopback and private ranges, as `vtr testvalues` lists them (every other non-routable range is a bogon too). */
const BOGON_EXAMPLES = ['127.0.0.0/8', '::1', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'] as const;

export type TestValueKind = 'ip' | 'user_agent' | 'referrer' | 'email' | 'phone' | 'address' | 'probe_id';

export interface TestValue {
  kind: TestValueKind;
  /** What to send (an IP range lists one address of it in `example`). */
  value: string;
  example: string;
  result: string;
  /** Risk labels the value adds, and the level they lead to (null: no level of its own). */
  risks: string[];
  risk_level: 'normal' | 'unwanted' | 'suspicious' | 'invalid' | null;
  /** Beyond the contract's table (vtr's own additions). */
  extension: boolean;
}

// In the order a visitor check answers them.
const riskOf = (r: (typeof TEST_IP_RANGES)[number]) =>
  orderRisks((['tor', 'vpn', 'proxy', 'hosting', 'anonymous'] as const).filter((k) => r[k]));

const row = (kind: TestValueKind, value: string, example: string, result: string, risks: string[], risk_level: TestValue['risk_level'], extension = false): TestValue =>
  ({ kind, value, example, result, risks, risk_level, extension });

export function testValues(): TestValue[] {
  const firstHost = (cidr: string) => cidr.includes(':') ? cidr.replace(/::\/\d+$/, '::10') : cidr.replace(/\.0\/\d+$/, '.10');
  return [
    ...TEST_IP_RANGES.map((r) => row('ip', r.cidr, firstHost(r.cidr), `${r.label}: ${r.country_code}, ${r.city}, ISP "${r.isp}", ${r.timezone}`, riskOf(r), r.risk_level, r.extension)),
    row('ip', BOGON_EXAMPLES.join(', '), '127.0.0.1', 'loopback/private (any non-routable IP): bogon, no geo, no risk (local development)', [], 'normal'),
    row('user_agent', 'contains HeadlessChrome', TEST_USER_AGENTS.headlessChrome, 'headless browser: bot, device.headless_browser true', ['bot'], 'invalid'),
    row('user_agent', 'any non-crawler bot', TEST_USER_AGENTS.curl, 'scripted client (curl, python-requests, scrapers): bot', ['bot'], 'invalid'),
    row('user_agent', 'Googlebot', TEST_USER_AGENTS.googlebot, 'search-engine crawler', ['crawler'], 'unwanted'),
    row('user_agent', 'Bingbot', TEST_USER_AGENTS.bingbot, 'search-engine crawler', ['crawler'], 'unwanted'),
    row('user_agent', 'ordinary browser', TEST_USER_AGENTS.chromeWindows, 'Chrome 131 on Windows 10, computer', [], 'normal', true),
    ...POOR_REPUTATION_REFERRERS.map((d) => row('referrer', `domain ${d} (and subdomains)`, `https://${d}/`, 'referrer with a poor reputation', ['poor_referrer_reputation'], 'unwanted')),
    row('email', 'any address at a disposable domain', 'someone@mailinator.com', 'disposable: true', ['disposable_email'], 'suspicious'),
    row('email', 'free provider, +tag', 'Jane.Doe+news@gmail.com', 'free: true, normalized_email jane.doe@gmail.com', [], null, true),
    row('email', 'business address', 'jane.doe@example.com', 'business: true; name_match with name "Jane Doe"', [], null, true),
    row('email', 'malformed', 'not-an-email', 'valid: false', [], null, true),
    row('phone', 'local format, read in the site country', '(212) 664-7665', 'on a US site: +12126647665, fixed_line_or_mobile', [], null, true),
    row('phone', 'international', '+44 20 7946 0958', '+442079460958, GB, fixed_line', [], null, true),
    row('phone', 'mobile', '+49 151 23456789', '+4915123456789, DE, mobile', [], null, true),
    row('phone', 'unparseable', '12345', 'valid: false', [], null, true),
    row('address', 'state and country names', 'address1 "1600 Amphitheatre Pkwy", city "Mountain View", state "California", country "United States", postal_code "94043"',
      'state_code CA, country_code US, postal_code_valid true', [], null, true),
    row('address', 'postal code not in the country format', 'country "US", postal_code "ABC"', 'postal_code_valid false, valid false', [], null, true),
    row('probe_id', 'empty, malformed, unknown or another site\'s', 'prb_bad', 'device.valid false', ['invalid_probe'], 'suspicious'),
    row('probe_id', 'valid probe, `ip` other than its page view\'s', 'probe of a 192.0.2.10 session, ip 192.0.2.99', 'device.probe_ip_match false', ['ip_mismatch'], 'suspicious'),
  ];
}
