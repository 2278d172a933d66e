// Scale (--scale): `vtr sessions simulate --count N` into one database, then GET latency at that size
// (random ids, far more than any cache holds) and `sessions list --where` timings.
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { config } from './config.mjs';
import { dbFileBytes, startServe, track } from './procs.mjs';
import { call, log, median, note, round, table } from './util.mjs';
import { runWrk } from './wrk.mjs';

const GET_IDS = 100_000;
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

export async function benchScale() {
  log('\n## Scale');
  const emu = await startServe('scale');
  const env = { ...process.env, VTR_BASE_URL: emu.baseUrl, CI: '1', NO_COLOR: '1' };
  const count = config.scaleCount;
  const out = { method: `vtr sessions simulate --count ${count} --seed 1` };
  note(`${out.method} (minutes at 1,000,000)`);
  const t0 = performance.now();
  const r = await new Promise((res) => {
    const child = track(spawn(process.execPath, [config.cli, 'sessions', 'simulate', '--count', String(count), '--seed', '1', '--json', '--quiet'], { env, stdio: ['ignore', 'ignore', 'pipe'] }));
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => res({ code, err }));
  });
  if (r.code !== 0) throw new Error(`simulate failed (${r.code}): ${r.err.slice(0, 500)}`);
  const secs = (performance.now() - t0) / 1000;
  Object.assign(out, { count, seconds: round(secs, 1), sessions_per_s: round(count / secs, 0), db_bytes: dbFileBytes(emu.db) });
  out.db_bytes_per_session = round(out.db_bytes / count, 0);

  // Random rowids rather than ORDER BY random(), which would sort the whole table.
  const ro = new Database(emu.db, { readonly: true, fileMustExist: true });
  out.sessions_in_db = ro.prepare('SELECT count(*) AS n FROM sessions').get().n;
  const maxRowid = ro.prepare('SELECT max(rowid) AS m FROM sessions').get().m ?? 0;
  const byRowid = ro.prepare('SELECT session_id FROM sessions WHERE rowid = ?');
  const ids = [];
  for (let i = 0; i < 2 * GET_IDS && ids.length < GET_IDS; i++) {
    const row = byRowid.get(1 + Math.floor(Math.random() * maxRowid));
    if (row) ids.push(row.session_id);
  }
  ro.close();

  note('GET latency at size');
  out.get = await runWrk(emu.origin, { paths: ids.map((id) => `/api/v1/session/${id}`), headers: { authorization: `Bearer ${emu.site.access_token}` }, pid: emu.pid });

  note('sessions list --where at size');
  const filters = ['risk_level = invalid', 'channel = paid and device_type = mobile', 'risks contains hosting', 'country_code = DE and page_views >= 3', 'city = "Nowhere"'];
  out.list = [];
  for (const f of filters) {
    const times = [];
    let n = 0;
    // A filter that matches little scans the whole table: few runs.
    for (let i = 0; i < (config.quick || count > 100_000 ? 3 : 7); i++) {
      const t = performance.now();
      const res = await call(emu.origin, 'GET', `/_vtr/api/sessions?site=${emu.site.site_id}&limit=20&where=${encodeURIComponent(f)}`);
      times.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`list --where ${f} answered ${res.status}: ${res.text.slice(0, 200)}`);
      n = res.body.length;
    }
    out.list.push({ filter: f, rows: n, median_ms: round(median(times), 1), max_ms: round(Math.max(...times), 1) });
  }
  const cliTimes = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const res = spawnSync(process.execPath, [config.cli, 'sessions', 'list', '--where', 'risk_level = invalid', '--limit', '20', '--json'], { env, stdio: 'ignore' });
    if (res.status !== 0) throw new Error('vtr sessions list --where failed');
    cliTimes.push(performance.now() - t);
  }
  out.cli_list_median_ms = round(median(cliTimes), 1);
  await emu.stop();

  log(out.method);
  const g = out.get;
  table(
    [
      ['sessions written', count.toLocaleString('en-US'), `${out.seconds} s (${out.sessions_per_s}/s)`],
      ['database file (db + wal)', mb(out.db_bytes), `${out.db_bytes_per_session} B/session`],
      [`GET /api/v1/session/{id} (${ids.length.toLocaleString('en-US')} random ids)`, `${g.rps}/s`, `p50 ${g.p50_ms} ms, p99 ${g.p99_ms} ms; server ${g.server_cores} cores`],
      ...out.list.map((l) => [`list --where ${l.filter}`, `${l.median_ms} ms`, `${l.rows} rows (limit 20), max ${l.max_ms} ms`]),
      ['vtr sessions list --where … (whole CLI run)', `${out.cli_list_median_ms} ms`, 'median of 3'],
    ],
    ['measure', 'value', 'detail'],
  );
  return out;
}
