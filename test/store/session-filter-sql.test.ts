import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesFilter, parseFilter, type FilterNode } from '../../src/domain/filter/index.js';
import { SESSION_FIELDS, SESSION_FIELD_KINDS, type Session } from '../../src/domain/session.js';
import { filterToSql } from '../../src/store/session-filter-sql.js';

const SQL_TYPE = { string: 'TEXT', number: 'REAL', boolean: 'INTEGER', array: 'TEXT' } as const;

function makeSessions(): Session[] {
  const pick = <T,>(xs: readonly T[], i: number): T => xs[i % xs.length];
  const out: Session[] = [];
  for (let i = 0; i < 32; i++) {
    const base = Object.fromEntries(SESSION_FIELDS.map((f) => [f, null])) as unknown as Session;
    out.push({
      ...base,
      site_id: pick(['site_a', 'site_b'], i),
      site_name: pick(['Shop', null, 'Blog'], i),
      session_id: `ses_${String(i).padStart(2, '0')}`,
      created_at: `2025-01-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:00:00.000Z`,
      updated_at: `2025-02-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00.000Z`,
      duration: pick([0, 5, 42, 61, null, 3600], i),
      page_views: pick([1, 2, 3, 7, null], i),
      entry_hostname: pick(['example.com', 'shop.example.com', null], i),
      entry_path: pick(['/', '/pricing', '/pricing?plan=pro', '/blog/a_b%c', null], i),
      exit_path: pick(['/', '/thanks', null], i),
      fingerprint: pick(['fp1', 'fp2', 'fp3', null], i),
      returned: pick([true, false, null], i),
      risk_level: pick(['normal', 'unwanted', 'suspicious', 'invalid', null] as const, i),
      engagement_level: pick(['bounced', 'normal', 'engaged', 'converted', null] as const, i),
      risks: pick([[], ['vpn', 'anonymous'], ['tor', 'anonymous'], ['bot'], ['hosting', 'anonymous', 'vpn'], ['VPN'], ['vpn']], i),
      actions: pick([[], ['review'], ['allow', 'review']], i),
      custom_events: pick([[], ['conversion'], ['add_to_cart', 'conversion'], ['it\'s "quoted"']], i),
      value: pick([null, 0, 12.5, -3, 0.1, 99], i),
      channel: pick(['paid', 'other', 'referral', 'direct', null, 'paid'] as const, i),
      source: pick(['google', 'meta', null, '', 'null', '🚀 launch', "x' OR 1=1 --"], i),
      source_campaign: pick(['Spring_Sale', 'spring_sale', '100%', null], i),
      referrer: pick(['https://spam-referrer.test/x', 'https://news.ycombinator.com/', null], i),
      referrer_domain: pick(['spam-referrer.test', 'news.ycombinator.com', null], i),
      ip: pick(['192.0.2.10', '198.51.100.7', '203.0.113.9', '2001:db8::1', null], i),
      country_code: pick(['US', 'GB', 'DE', 'FR', null], i),
      city: pick(['New York', 'London', 'Berlin', 'München', null, 'Paris'], i),
      device_type: pick(['mobile', 'tablet', 'computer', null] as const, i),
      browser_name: pick(['Chrome', 'Firefox', 'Safari', null], i),
      browser_version: pick(['120.0', '121', null], i),
      user_agent: pick(['Mozilla/5.0 Chrome/120', 'Mozilla/5.0 HeadlessChrome/120', 'Googlebot/2.1', null], i),
    });
  }
  return out;
}

const FILTERS = [
  'channel = paid',
  'channel != paid',
  'channel in (paid, direct)',
  'channel not in (paid, direct)',
  'channel is null',
  'channel is not null',
  'risk_level in (suspicious, invalid) and channel = paid and risks contains vpn',
  'risk_level in (suspicious, invalid) or channel = paid and risks contains vpn',
  '(risk_level in (suspicious, invalid) or channel = paid) and risks contains vpn',
  'risks contains vpn',
  'risks not contains anonymous',
  'not (risks contains anonymous or risks contains bot)',
  'actions contains review and custom_events contains conversion',
  `custom_events contains 'it\\'s "quoted"'`,
  'page_views > 2',
  'page_views >= 2 and page_views <= 3',
  'page_views < 3',
  'page_views != 3',
  'page_views in (1, 7)',
  'page_views not in (1, 7)',
  'page_views = "7"',
  'not (page_views > 2)',
  'duration >= 61 or duration = 0',
  'value > 0',
  'value < 0',
  'value = 0.1',
  'value <= -3 or value >= 99',
  'value != 0',
  'returned = true',
  'returned = false',
  'returned != true',
  'returned is null',
  'created_at >= 2025-01-10 and created_at < "2025-01-20"',
  'updated_at > 2025-02-15T00:00:00.000Z',
  'user_agent contains Headless',
  'user_agent not contains Chrome',
  'entry_path contains "%"',
  'entry_path contains _',
  'entry_path = /pricing',
  'source = ""',
  'source = "null"',
  'source contains ""',
  'source contains "🚀"',
  `source = "x' OR 1=1 --"`,
  'city = München or city = "New York"',
  'city != Paris and country_code != FR',
  'not (city is null) and not (country_code = US)',
  'country_code = de or country_code in (gb, "Fr")',
  'country_code != de',
  'source_campaign = spring_sale',
  'source_campaign contains Sale',
  'ip contains 2001:db8',
  'referrer_domain = spam-referrer.test',
  'site_id = site_a and (device_type = mobile or device_type is null)',
  'browser_version = 121 or browser_version = 120.0',
  'not not channel = paid',
];

/** Filters expected to match nothing or everything (kept because the equivalence still matters). */
const TRIVIAL = new Set(['source contains ""']);

describe('filterToSql', () => {
  let db: Database.Database;
  const sessions = makeSessions();
  const sqlIds = (node: FilterNode): string[] => {
    const { where, params } = filterToSql(node);
    return db
      .prepare<unknown[], { session_id: string }>(`SELECT session_id FROM sessions WHERE ${where} ORDER BY session_id`)
      .all(...params)
      .map((r) => r.session_id);
  };
  const memIds = (node: FilterNode): string[] =>
    sessions.filter((s) => matchesFilter(node, s)).map((s) => s.session_id).sort();

  beforeAll(() => {
    db = new Database(':memory:');
    const cols = SESSION_FIELDS.map((f) => {
      const kind = SESSION_FIELD_KINDS[f];
      const type = f === 'duration' || f === 'page_views' ? 'INTEGER' : SQL_TYPE[kind];
      return `${f} ${type}${kind === 'array' ? " NOT NULL DEFAULT '[]'" : ''}`;
    });
    db.exec(`CREATE TABLE sessions (${cols.join(', ')})`);
    const insert = db.prepare(
      `INSERT INTO sessions (${SESSION_FIELDS.join(', ')}) VALUES (${SESSION_FIELDS.map(() => '?').join(', ')})`,
    );
    for (const s of sessions) {
      insert.run(
        ...SESSION_FIELDS.map((f) => {
          const v = s[f];
          if (Array.isArray(v)) return JSON.stringify(v);
          if (typeof v === 'boolean') return v ? 1 : 0;
          return v;
        }),
      );
    }
  });
  afterAll(() => db.close());

  it.each(FILTERS)('equivalence: %s', (src) => {
    const node = parseFilter(src);
    const mem = memIds(node);
    expect(sqlIds(node)).toEqual(mem);
    if (!TRIVIAL.has(src)) {
      expect(mem.length, 'filter matches nothing').toBeGreaterThan(0);
      expect(mem.length, 'filter matches everything').toBeLessThan(sessions.length);
    }
  });

  it('equivalence: random generated filters agree with matchesFilter', () => {
    const clauses = [
      'channel = paid', 'channel != direct', 'city is null', 'city is not null', 'risks contains anonymous',
      'risks not contains vpn', 'page_views > 2', 'page_views <= 1', 'value != 0', 'returned = true',
      'returned != false', 'country_code in (US, DE)', 'country_code not in (GB)', 'source contains o',
      'source not contains g', 'created_at < 2025-01-15', 'duration = 0',
    ];
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const gen = (d: number): string => {
      const r = rnd(d > 3 ? 1 : 4);
      if (r === 0) return clauses[rnd(clauses.length)];
      if (r === 1) return `not (${gen(d + 1)})`;
      return `(${gen(d + 1)} ${r === 2 ? 'and' : 'or'} ${gen(d + 1)})`;
    };
    for (let k = 0; k < 300; k++) {
      const src = gen(0);
      const node = parseFilter(src);
      expect(sqlIds(node), src).toEqual(memIds(node));
    }
  });

  it('params: values are never interpolated into the SQL', () => {
    const node = parseFilter(`source = "x' OR 1=1 --" or city = 'Robert\\'); DROP TABLE sessions;--'`);
    const { where, params } = filterToSql(node);
    expect(where).not.toContain('OR 1=1');
    expect(where).not.toContain('DROP');
    expect(params).toEqual(["x' OR 1=1 --", "Robert'); DROP TABLE sessions;--"]);
    expect(sqlIds(node)).toEqual(memIds(node));
    expect(db.prepare('SELECT count(*) AS n FROM sessions').get()).toEqual({ n: sessions.length });
  });

  it('shape: compiles each operator to two-valued SQL with quoted whitelisted columns', () => {
    const sql = (src: string) => filterToSql(parseFilter(src));
    expect(sql('channel = paid')).toEqual({ where: '"channel" IS ?', params: ['paid'] });
    expect(sql('returned != true')).toEqual({ where: '"returned" IS NOT ?', params: [1] });
    expect(sql('page_views < 3').where).toBe('("page_views" IS NOT NULL AND "page_views" < ?)');
    expect(sql('risks contains vpn').where).toBe('EXISTS (SELECT 1 FROM json_each("risks") AS je WHERE je.value = ?)');
    expect(sql('city contains a').where).toBe('(COALESCE(instr("city", ?), 0) > 0)');
    expect(sql('city not in (a, b)')).toEqual({
      where: 'NOT ("city" IS NOT NULL AND "city" IN (?, ?))',
      params: ['a', 'b'],
    });
    expect(filterToSql(parseFilter('city is null'), { tableAlias: 's' }).where).toBe('"s"."city" IS NULL');
  });

  it('whitelist: refuses hand-built nodes with unknown fields or a bad alias', () => {
    const evil = { type: 'null', field: 'city" IS NULL; DROP TABLE sessions; --', negated: false } as unknown as FilterNode;
    expect(() => filterToSql(evil)).toThrow(/not a Session field/);
    expect(() => filterToSql(parseFilter('city is null'), { tableAlias: 's; DROP' })).toThrow(/invalid table alias/);
  });

  it('length: a maximal or-chain and a maximal in-list run in SQLite', () => {
    const chain = parseFilter(Array.from({ length: 500 }, (_, i) => `ip=${i % 10}`).join(' or '));
    expect(sqlIds(chain)).toEqual(memIds(chain));
    const list = parseFilter(`page_views in (${Array.from({ length: 1300 }, (_, i) => i % 9).join(',')})`);
    expect(sqlIds(list)).toEqual(memIds(list));
    const deep = parseFilter(`${'('.repeat(32)}channel = paid${')'.repeat(32)}`);
    expect(sqlIds(deep)).toEqual(memIds(deep));
  });
});
