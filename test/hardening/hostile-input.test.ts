// Hostile input outside HTTP: the filter language (fuzzed token sequences, random text, mutations)
// and the CLI's flags (bad values exit 2 with a message naming the flag).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilterError, matchesFilter, parseFilter, type FilterNode } from '../../src/domain/filter/index.js';
import { filterToSql } from '../../src/store/session-filter-sql.js';
import type { Session } from '../../src/domain/session.js';
import { harness, UA, type Harness } from '../helpers/emulator.js';
import { runCli, tempDir } from '../helpers/vtr-process.js';
import { mulberry32 } from '../../src/sessions/simulate-plan.js';

// Deterministic pseudo-random numbers, so a failure reproduces.
const rng = mulberry32;

describe('filter language fuzz', () => {
  let h: Harness;
  let sessions: Session[];

  beforeAll(async () => {
    h = harness();
    // Varied sessions, so the SQL and in-memory evaluators have something to disagree about.
    const specs: Array<Record<string, unknown>> = [
      {},
      { ip: '198.51.100.4', url: 'https://shop.test/?gclid=abc&utm_source=g', page_views: 4, duration: 120 },
      { ip: '203.0.113.9', user_agent: UA.headless },
      { ip: '2001:db8::1', user_agent: UA.iphone, referrer: 'https://news.example.org/x', custom_events: ['conversion', 'signup'] },
      { ip: '10.0.0.1', user_agent: UA.googlebot, referrer: 'https://spam-referrer.test/' },
      { ip: null, user_agent: null, language: null, timezone: null },
      { ip: '192.0.2.77', url: 'https://example.com/?fbclid=zz', user_agent: UA.ipad, page_views: 2, duration: 5 },
      { ip: '192.0.2.78', url: 'https://example.com/p?utm_source=news&utm_medium=email&utm_campaign=x y', custom_events: ['a', 'a', 'b'] },
    ];
    for (const spec of specs) await h.createSession(spec);
    sessions = h.emulator.store.sessions.list({ limit: 1000 });
    expect(sessions.length).toBe(specs.length);
  });
  afterAll(async () => h?.close());

  const FIELDS = ['channel', 'risk_level', 'risks', 'page_views', 'duration', 'created_at', 'updated_at', 'returned', 'city', 'country_code', 'ip', 'custom_events', 'value', 'device_type', 'engagement_level', 'source', 'user_agent', 'site_id', 'nope', 'CHANNEL', 'Risks'];
  const OPS = ['=', '!=', '<', '<=', '>', '>=', 'in', 'not', 'contains', 'is', 'null', 'not in', 'not contains', 'is not null', 'is null'];
  const VALUES = ['paid', 'direct', 'invalid', 'normal', 'bot', 'tor', 'conversion', '1', '0', '-1', '2.5', '1e3', '99999999999999999999', 'true', 'false', 'TRUE', '"x"', "'y'", '""', '"a\\"b"', "'\\n'", '"\\q"', '2026-01-01', '"2026-11-21T09:14:03.123456"', 'US', 'New', '%', '_', "'%'", 'NULL', '"null"', 'and', 'or', '😀', '"😀"', '\u202E', 'a.b', 'x@y', '/path', 'a:b', '-'];
  const PUNCT = ['(', ')', ',', '(', ')', '!', ';', '"', "'", '\\', '\u0000', '\t', '\n', '`', '*', '[', ']', '{', '}', '#', '$', '?', '|', '&'];
  const KEYWORDS = ['and', 'or', 'not', 'AND', 'Or', 'NOT'];

  /** Returns normally for a node, throws for anything else; the node must be usable everywhere. */
  function exercise(src: string): 'ok' | 'error' {
    let node: FilterNode;
    try {
      node = parseFilter(src);
    } catch (err) {
      if (!(err instanceof FilterError)) throw new Error(`parseFilter(${JSON.stringify(src)}) threw a ${(err as Error)?.constructor?.name}: ${(err as Error)?.message}`);
      if (!Number.isInteger(err.position) || err.position < 0 || err.position > src.length) {
        throw new Error(`parseFilter(${JSON.stringify(src)}): position ${err.position} outside 0..${src.length}`);
      }
      if (!err.message || /undefined|NaN|\[object/.test(err.message)) throw new Error(`parseFilter(${JSON.stringify(src)}): poor message ${err.message}`);
      return 'error';
    }
    if (!node || typeof node !== 'object' || typeof node.type !== 'string') throw new Error(`parseFilter(${JSON.stringify(src)}) returned ${JSON.stringify(node)}`);
    // The SQL compiler and the in-memory evaluator accept every parsed filter, and agree.
    const sql = filterToSql(node);
    const bySql = new Set(h.emulator.store.sessions.list({ where: sql, limit: 10_000 }).map((s) => s.session_id));
    const inMemory = new Set(sessions.filter((s) => matchesFilter(node, s)).map((s) => s.session_id));
    if ([...bySql].sort().join() !== [...inMemory].sort().join()) {
      throw new Error(`SQL and in-memory disagree on ${JSON.stringify(src)}: sql ${bySql.size}, memory ${inMemory.size}`);
    }
    return 'ok';
  }

  it('parseFilter: random token sequences give a node or a FilterError, never anything else', () => {
    const rand = rng(6);
    const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
    let ok = 0;
    let bad = 0;
    const deadline = Date.now() + 15_000;
    for (let i = 0; i < 20_000 && Date.now() < deadline; i++) {
      const n = 1 + Math.floor(rand() * 12);
      const parts: string[] = [];
      for (let k = 0; k < n; k++) {
        const r = rand();
        parts.push(r < 0.3 ? pick(FIELDS) : r < 0.55 ? pick(OPS) : r < 0.8 ? pick(VALUES) : r < 0.92 ? pick(PUNCT) : pick(KEYWORDS));
      }
      const src = parts.join(pick([' ', ' ', ' ', '', '  ', '\t']));
      if (exercise(src) === 'ok') ok++;
      else bad++;
    }
    // The generator reaches both outcomes in quantity.
    expect(ok).toBeGreaterThan(10);
    expect(bad).toBeGreaterThan(1000);
  });

  it('parseFilter: well-formed clauses joined at random parse, and SQL agrees with memory', () => {
    const rand = rng(7);
    const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
    const clauses = [
      'channel = paid', 'channel != direct', 'risk_level in (suspicious, invalid)', 'risk_level not in (normal)', 'risks contains bot',
      'risks not contains tor', 'page_views >= 2', 'duration < 60', 'returned = false', 'city is null', 'city is not null',
      'user_agent contains "Mobile"', 'country_code = US', 'created_at > "2000-01-01"', 'custom_events contains a', 'value is null',
      'source = google', 'device_type in (mobile, tablet)', 'engagement_level = converted', 'ip contains "192.0.2"',
    ];
    let parsed = 0;
    for (let i = 0; i < 600; i++) {
      const n = 1 + Math.floor(rand() * 5);
      let src = pick(clauses);
      for (let k = 1; k < n; k++) {
        const c = pick(clauses);
        src = `${src} ${pick(['and', 'or', 'AND', 'or not'])} ${rand() < 0.3 ? `(${c})` : c}`;
      }
      if (rand() < 0.2) src = `not (${src})`;
      expect(exercise(src), src).toBe('ok');
      parsed++;
    }
    expect(parsed).toBe(600);
  });

  it('parseFilter: random characters and mutated filters never escape as other errors', () => {
    const rand = rng(8);
    const alphabet = 'abcdefghijklmnopqrstuvwxyz_0123456789 ()=!<>,"\'\\.-:@/\t\n😀\u0000\u202E%*;';
    const chars = [...alphabet];
    const seeds = ['risk_level in (suspicious, invalid) and channel = paid and risks contains vpn', 'not (city is null) or page_views >= 3', "user_agent contains 'x\\'y' and returned = true"];
    for (let i = 0; i < 5000; i++) {
      let src: string;
      if (rand() < 0.5) {
        src = Array.from({ length: Math.floor(rand() * 40) }, () => chars[Math.floor(rand() * chars.length)]).join('');
      } else {
        const a = [...seeds[i % seeds.length]];
        for (let m = 0; m < 1 + Math.floor(rand() * 3); m++) {
          const at = Math.floor(rand() * (a.length + 1));
          const op = rand();
          if (op < 0.33) a.splice(at, 1);
          else if (op < 0.66) a.splice(at, 0, chars[Math.floor(rand() * chars.length)]);
          else a[at] = chars[Math.floor(rand() * chars.length)];
        }
        src = a.join('');
      }
      exercise(src);
    }
    // Bounds: very long, very deep, very wide.
    for (const src of ['x'.repeat(100_000), '('.repeat(10_000), 'not '.repeat(10_000) + 'channel = paid', `${'('.repeat(33)}channel = paid${')'.repeat(33)}`, `channel in (${Array.from({ length: 1900 }, () => 'a').join(',')})`, 'channel = paid and '.repeat(200) + 'channel = paid', '"'.repeat(3999), '\\'.repeat(3999)]) {
      exercise(src);
    }
    // Not a string at all (JSON bodies can carry anything).
    for (const v of [null, undefined, 1, {}, [], true]) {
      expect(() => parseFilter(v as unknown as string)).toThrow(FilterError);
    }
  });
});

describe('CLI arguments', () => {
  // A port nothing listens on: a flag that slips through validation fails loudly (exit 1), instead
  // of reaching another emulator on the default port.
  const env = { VTR_BASE_URL: 'http://127.0.0.1:9/api/v1', VTR_ADMIN_TOKEN: undefined, VTR_ACCESS_TOKEN: undefined, VTR_SECRET_KEY: undefined };
  const db = () => ['--db', `${tempDir('vtr-cli-args-')}/vtr.db`];
  const cases: Array<[string[], string]> = [
    [['sessions', 'list', '--limit', 'abc'], '--limit'],
    [['sessions', 'list', '--limit', '0'], '--limit'],
    [['sessions', 'list', '--limit', '1e9'], '--limit'],
    [['sessions', 'list', '--limit'], '--limit'],
    [['sessions', 'list', '--no-such-flag'], '--no-such-flag'],
    [['sessions', 'create', '--page-views', 'abc'], '--page-views'],
    [['sessions', 'create', '--page-views', '-3'], '--page-views'],
    [['sessions', 'create', '--duration', 'soon'], '--duration'],
    [['sessions', 'simulate', '--count', 'abc'], '--count'],
    [['sessions', 'simulate', '--count', '0'], '--count'],
    [['sessions', 'simulate', '--count', '99999999999'], '--count'],
    [['serve', '--port', 'abc', ...db()], '--port'],
    [['serve', '--port', '70000', ...db()], '--port'],
    [['serve', '--port', '-1', ...db()], '--port'],
    [['serve', '--clock', 'bogus', ...db()], '--clock'],
    [['serve', '--retry-base', 'soon', ...db()], '--retry-base'],
    [['serve', '--retry-schedule', '1s,2s', ...db()], '--retry-schedule'],
    [['serve', '--retry-schedule', '1s,2s,x,4s,5s', ...db()], '--retry-schedule'],
    [['serve', '--webhook-timeout', 'never', ...db()], '--webhook-timeout'],
    [['serve', '--rate-limit', '-5', ...db()], '--rate-limit'],
    [['serve', '--rate-limit', 'many', ...db()], '--rate-limit'],
    [['serve', '--smtp', 'http://127.0.0.1:25', ...db()], '--smtp'],
    [['serve', '--log', 'xml', ...db()], '--log'],
    [['serve', '--host', '0.0.0.0', ...db()], '--host'],
    [['--base-url', 'notaurl', 'sessions', 'list'], '--base-url'],
    [['--base-url', 'ftp://x/api/v1', 'sessions', 'list'], '--base-url'],
    [['check', '--fail-on', 'nope'], '--fail-on'],
    [['check', '--data', '/nonexistent/vtr-file.json'], '--data'],
    [['webhooks', 'events', 'wh_x', '--status', 'bogus'], '--status'],
    [['logs', 'list', '--limit', 'abc'], '--limit'],
    [['notifications', 'list', '--limit', 'abc'], '--limit'],
  ];

  it('flags: a bad value or unknown flag exits 2 with a message naming the flag', async () => {
    const results: Array<{ args: string[]; flag: string; code: number; stderr: string; stdout: string }> = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < cases.length) {
          const [args, flag] = cases[next++];
          const r = await runCli(args, { env, timeoutMs: 20_000 });
          results.push({ args, flag, ...r });
        }
      }),
    );
    const wrong = results.filter((r) => r.code !== 2 || !r.stderr.includes(r.flag) || r.stdout.trim() !== '' || /at .+\.js:\d+/.test(r.stderr));
    expect(
      wrong.map((r) => `vtr ${r.args.join(' ')} → exit ${r.code}\n  stderr: ${r.stderr.trim().slice(0, 300)}\n  stdout: ${r.stdout.trim().slice(0, 100)}`).join('\n'),
    ).toBe('');
  }, 120_000);

  it('flags: hostile values (NUL, emoji, huge) never crash the CLI', async () => {
    const values = ['\u202Eevil', '😀', 'x'.repeat(50_000), '-', '--', '%s%n', '$(id)', "'; DROP TABLE sessions; --"];
    const results = await Promise.all(
      values.map((v) => runCli(['sessions', 'list', '--where', v, '--limit', v], { env, timeoutMs: 20_000 })),
    );
    for (const [i, r] of results.entries()) {
      expect(r.code, `${values[i].slice(0, 20)}: ${r.stderr}`).toBe(2);
      expect(r.stderr).not.toMatch(/at .+\.js:\d+|TypeError|RangeError/);
    }
  }, 60_000);
});
