// HTTP throughput and latency: each route loaded by wrk against the bare node:http server and
// against `vtr serve`, in alternating order over several rounds. A round's ratio is emulator req/s
// over bare req/s; it counts only if the bare server was saturated (at least SATURATED_CORES of
// CPU), since otherwise the ratio measures the load generator, not the server.
import Database from 'better-sqlite3';
import { SATURATED_CORES, TARGETS, config } from './config.mjs';
import { createSessions, startBare, startServe } from './procs.mjs';
import { call, log, median, note, round, sleep, spread, table } from './util.mjs';
import { runWrk } from './wrk.mjs';
import { addStalls, printStalls, stallProbeArgs } from './stalls.mjs';

/** The row tag of the Hono floor (--floor). */
const FLOOR_TAG = 'hono floor';
/** The row tag of the generic mock server (on unless --no-mock). */
const MOCK_TAG = 'json-server';

/** The pause after each run, so what a flood leaves the emulator to do is not billed to the next. */
const SETTLE_MS = 500;

const CASES = [
  { key: 'get', label: 'GET /api/v1/session/{id}' },
  { key: 'session_event', label: 'POST /api/v1/session/{id}/event' },
  { key: 'check', label: 'POST /api/v1/event (fixed full body)' },
  { key: 'check_varied', label: 'POST /api/v1/event (every body different)' },
];

/** One emulator with sessions, a probe and the load options of each case. */
async function prepare(name, serveArgs, nodeArgs = []) {
  const emu = await startServe(name, serveArgs, nodeArgs);
  const token = emu.site.access_token;
  const auth = { authorization: `Bearer ${token}` };
  note(`${name}: creating ${config.sessionsForHttp} sessions`);
  const ids = await createSessions(emu, config.sessionsForHttp, { page_views: 3, duration: 40, referrer: 'https://news.example.org/a' });
  const answers = {
    get: await call(emu.origin, 'GET', `/api/v1/session/${ids[0]}`, { token }),
    event: await call(emu.origin, 'POST', `/api/v1/session/${ids[0]}/event`, { token, body: { name: 'bench' } }),
  };
  if (answers.get.status !== 200 || answers.event.status !== 200) throw new Error(`sanity requests failed: ${answers.get.status} ${answers.event.status}`);
  // A real probe from one of the sessions' page views.
  const ro = new Database(emu.db, { readonly: true, fileMustExist: true });
  const probe = ro.prepare('SELECT probe_id FROM probes ORDER BY created_us DESC LIMIT 1').get()?.probe_id ?? 'prb_missing';
  ro.close();
  const check = (f) => ({
    secret_key: emu.site.secret_key,
    probe_id: probe,
    ip: f.ip,
    email: f.email,
    name: f.name,
    phone: f.phone,
    address: { address1: f.address1, city: 'New York', state: 'New York', country: 'United States', postal_code: '10112' },
  });
  const fixed = JSON.stringify(check({ ip: '192.0.2.10', email: 'Jane.Doe+shop@example.com', name: 'Jane Doe', phone: '(212) 664-7665', address1: '30 Rockefeller Plaza' }));
  const varied = JSON.stringify(check({ ip: '@@ip@@', email: '@@email@@', name: '@@name@@', phone: '@@phone@@', address1: '@@address1@@' }));
  answers.check = await call(emu.origin, 'POST', '/api/v1/event', { body: JSON.parse(fixed) });
  if (answers.check.status !== 200) throw new Error(`POST /api/v1/event answered ${answers.check.status}: ${answers.check.text.slice(0, 300)}`);
  const opts = {
    get: { paths: ids.map((id) => `/api/v1/session/${id}`), headers: auth },
    session_event: { method: 'POST', paths: ids.map((id) => `/api/v1/session/${id}/event`), headers: auth, body: JSON.stringify({ name: 'bench' }) },
    check: { method: 'POST', paths: ['/api/v1/event'], body: fixed },
    check_varied: { method: 'POST', paths: ['/api/v1/event'], varied },
  };
  // Reading the request log writes what waits in it.
  const afterRun = () => call(emu.origin, 'GET', '/_vtr/api/logs?limit=1');
  return { name, serveArgs, emu, ids, answers, opts, afterRun };
}

export async function benchHttp() {
  log('\n## HTTP throughput and latency');
  log(`wrk -t${config.wrkThreads} -c${config.connections}, ${config.duration} s per run, ${config.rounds} round(s) alternating bare/emulator, loopback, each server its own process\n`);
  const nodeArgs = [...(config.profile ? ['--cpu-prof', `--cpu-prof-dir=${config.tmp}/cpu-profile`] : []), ...(config.stalls ? stallProbeArgs() : [])];
  const sides = [await prepare('vtr', [], nodeArgs)];
  if (config.serveArgs.length) {
    try {
      const extra = await prepare('vtr-extra', config.serveArgs);
      const tag = config.serveArgs.join(' ');
      sides.push({ ...extra, tag, note: `rows marked [${tag}]: a second emulator started with those \`vtr serve\` arguments, in the same rounds` });
    } catch (err) {
      log(`!! vtr serve ${config.serveArgs.join(' ')} could not be measured: ${err.message}\n`);
    }
  }
  const a = sides[0].answers;
  const responses = { get: a.get.text, event: a.event.text, check: a.check.text };
  const bare = await startBare(responses);
  if (config.floor) {
    // Measured like an emulator, in the same rounds: its ratio is what the framework alone reaches.
    const floors = [[FLOOR_TAG, [], 'bench/hono-floor.mjs, the hot routes as a Hono app answering bare\'s bytes (the framework alone), in the same rounds']];
    if (config.floorWork) floors.push([`${FLOOR_TAG} + ${config.floorWork} µs`, [String(config.floorWork)], `the same app spinning ${config.floorWork} µs of CPU in each handler`]);
    for (const [tag, args, what] of floors) {
      const floor = await startBare(responses, 'hono-floor.mjs', args);
      sides.push({ name: 'hono-floor', serveArgs: [], tag, note: `rows marked [${tag}]: ${what}`, targets: false, emu: { ...floor, stderr: () => '' }, opts: sides[0].opts });
    }
  }
  if (config.mock) {
    // The same sessions, as records of a generic mock server (contract: "far above generic mock servers").
    const session = JSON.parse(a.get.text);
    const db = { sessions: sides[0].ids.map((id) => ({ ...session, id, session_id: id })) };
    const mock = await startBare(db, 'mock-server.mjs');
    const what = 'json-server, a generic mock server, on the same sessions (bench/mock-server.mjs: in memory, no middleware; a POST adds a record)';
    sides.push({ name: 'json-server', serveArgs: [], tag: MOCK_TAG, mock: true, note: `rows marked [${MOCK_TAG}]: ${what}, in the same rounds`, targets: false, emu: { ...mock, stderr: () => '' }, opts: sides[0].opts });
  }
  const settled = async (side, run) => {
    const result = await run;
    // What the run left to do is done before the next one (the pause lets the WAL checkpoint catch up).
    await side.afterRun?.();
    await sleep(SETTLE_MS);
    return result;
  };
  const load = async (side, c, duration) => {
    if (!side.emu) return runWrk(bare.origin, { ...sides[0].opts[c], duration, pid: bare.pid });
    // The run's window, to match the emulator's event-loop stalls to it; the probe watches only
    // between the two signals (--stalls).
    const probe = () => config.stalls && side === sides[0] && process.kill(side.emu.pid, 'SIGUSR2');
    probe();
    const from = Date.now();
    const run = await runWrk(side.emu.origin, { ...side.opts[c], duration, pid: side.emu.pid });
    const window = [from, Date.now()];
    probe();
    return { ...run, window };
  };

  note('warming up');
  for (const s of [...sides, {}]) await settled(s, load(s, 'get', 1));

  const out = { cases: {} };
  for (const c of CASES.filter((k) => config.cases.includes(k.key))) {
    const rounds = [];
    for (let r = 0; r < config.rounds; r++) {
      note(`${c.label} (round ${r + 1} of ${config.rounds})`);
      const order = [{ key: 'bare' }, ...sides.map((s, i) => ({ key: i, side: s }))];
      if (r % 2) order.reverse();
      const runs = {};
      for (const o of order) runs[o.key] = await settled(o.side ?? {}, load(o.side ?? {}, c.key));
      const saturated = runs.bare.server_cores != null && runs.bare.server_cores >= SATURATED_CORES;
      rounds.push({
        bare: runs.bare,
        saturated,
        sides: sides.map((_, i) => ({ ...runs[i], ratio: saturated ? round(runs[i].rps / runs.bare.rps, 3) : null })),
      });
    }
    out.cases[c.key] = summarise(c, rounds, sides);
  }
  if (config.stalls) addStalls(out, sides[0].emu.pid);
  await bare.stop();
  for (const s of sides) {
    await s.emu.stop();
    const unexpected = s.emu.stderr().match(/unexpected error/g)?.length ?? 0;
    if (unexpected) log(`!! ${s.name} logged ${unexpected} unexpected error(s)`);
  }
  print(out, sides);
  if (config.stalls) printStalls(out);
  printAgainstMock(out, sides);
  if (config.profile) out.profile_dir = `${config.tmp}/cpu-profile`;
  return out;
}

function summarise(c, rounds, sides) {
  const med = (get, key, d = 2) => round(median(rounds.map((r) => get(r)[key])), d);
  const side = (get) => ({
    rps: med(get, 'rps', 0),
    p50_ms: med(get, 'p50_ms'),
    p99_ms: med(get, 'p99_ms'),
    server_cores: med(get, 'server_cores'),
    server_main_cores: med(get, 'server_main_cores'),
    server_cpu_us_per_req: med(get, 'server_cpu_us_per_req', 1),
    wrk_cores: med(get, 'wrk_cores'),
    other_cores: med(get, 'other_cores'),
    failed: rounds.reduce((n, r) => n + get(r).failed, 0),
  });
  return {
    label: c.label,
    target_ratio: TARGETS[c.key] ?? null,
    saturated_rounds: rounds.filter((r) => r.saturated).length,
    bare: side((r) => r.bare),
    sides: sides.map((s, i) => {
      const ratios = rounds.map((r) => r.sides[i].ratio);
      return { name: s.name, serve_args: s.serveArgs, tag: s.tag ?? null, targets: s.targets ?? true, ratio: round(median(ratios), 3), ratios, ratio_spread: round(spread(ratios), 3), ...side((r) => r.sides[i]) };
    }),
    rounds,
  };
}

const mark = (ok) => (ok ? ' ✓' : ' ✗');

function print(out, sides) {
  const rows = [];
  const failures = [];
  for (const c of Object.values(out.cases)) {
    for (const s of c.sides) {
      const label = s.tag ? `${c.label} [${s.tag}]` : c.label;
      // The targets are vtr's: the floor's row has none.
      const target = s.targets ? c.target_ratio : null;
      const noise = s.ratio_spread ? ` ±${(s.ratio_spread / 2).toFixed(2)}` : '';
      const ratio = s.ratio == null ? 'generator-bound: no ratio' : `${s.ratio.toFixed(2)}${noise}${target ? mark(s.ratio >= target) : ''}`;
      rows.push([
        label,
        `${s.rps}/s`,
        `${c.bare.rps}/s`,
        ratio,
        target ? `≥ ${target}` : '',
        `${s.p50_ms} / ${s.p99_ms}${target ? mark(s.p99_ms < TARGETS.p99_ms) : ''}`,
        `${c.bare.p50_ms} / ${c.bare.p99_ms}`,
        `${c.bare.server_cores} (${c.saturated_rounds}/${c.rounds.length})`,
        `${s.server_cores} (${s.server_main_cores})`,
        `${s.server_cpu_us_per_req} / ${c.bare.server_cpu_us_per_req}`,
        `${c.bare.wrk_cores} / ${c.bare.other_cores}`,
      ]);
      if (s.failed || c.bare.failed) failures.push(`${label}: ${s.failed} failed requests on vtr, ${c.bare.failed} on bare (wrk: non-2xx/3xx, socket errors, timeouts)`);
    }
  }
  table(rows, ['route', 'vtr', 'bare', 'ratio', 'target', 'vtr p50 / p99 ms', 'bare p50 / p99 ms', 'bare cores (sat.)', 'vtr cores (main)', 'µs CPU/req vtr / bare', 'wrk / others cores']);
  for (const f of failures) log(`!! ${f}`);
  log(`\nmedians over rounds. ratio: median of the rounds whose bare server used ≥ ${SATURATED_CORES} core (sat.: how many did), ± half their spread.`);
  log('generator-bound: no round saturated the bare server, so no ratio. wrk / others: the load generator\'s CPU and every other');
  log('process\'s during the bare runs (a busy machine starves both servers). µs CPU/req: all threads of each server per answered request.');
  log('per round: the bare server\'s cores and req/s → each side\'s req/s (ratio, p99): a p99 varies far more between rounds than a ratio.');
  for (const [k, c] of Object.entries(out.cases)) {
    const per = c.rounds.map((r) => `${r.bare.server_cores} cores ${r.bare.rps}/s → ${r.sides.map((s) => `${s.rps}/s (${s.ratio ?? 'no ratio'}, p99 ${s.p99_ms} ms)`).join(', ')}`);
    log(`  ${k.padEnd(13)} ${per.join(' | ')}`);
  }
  for (const s of sides) if (s.note) log(s.note);
}

/** vtr against the generic mock server: the median over rounds of vtr's req/s over json-server's. */
function printAgainstMock(out, sides) {
  const m = sides.findIndex((s) => s.mock);
  if (m === -1) return;
  log(`\nvtr against ${MOCK_TAG} (a generic mock server, answering from memory, checking and storing nothing), same rounds:`);
  for (const c of Object.values(out.cases)) {
    const times = median(c.rounds.map((r) => r.sides[0].rps / r.sides[m].rps));
    c.vs_mock = round(times, 2);
    log(`  ${c.label.padEnd(42)} vtr ${c.sides[0].rps}/s, ${MOCK_TAG} ${c.sides[m].rps}/s: ${times.toFixed(1)} ×`);
  }
}
