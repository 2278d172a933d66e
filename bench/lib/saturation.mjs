// `--only=saturation`: can wrk saturate the bare server on this machine, and with how many threads?
// Loads only the bare server (GET, and POST with fixed and with varied bodies) at -t1 and -t2,
// alternating, and prints its cores, wrk's and the rest of the machine's.
import { config } from './config.mjs';
import { startBare } from './procs.mjs';
import { log, median, note, round, sleep, table } from './util.mjs';
import { runWrk } from './wrk.mjs';

export async function benchSaturation() {
  log('\n## Saturating the bare server');
  log(`wrk -c${config.connections}, ${config.duration} s per run, ${config.rounds} round(s), -t1 and -t2 alternating\n`);
  const answer = JSON.stringify({ session_id: 'ses_x', risk_level: 'low', padding: 'x'.repeat(800) });
  const bare = await startBare({ get: answer, event: '{"ok":true}', check: answer });
  const body = JSON.stringify({ secret_key: `sk_${'a'.repeat(32)}`, probe_id: `prb_${'b'.repeat(22)}`, ip: '@@ip@@', email: '@@email@@', name: '@@name@@', phone: '@@phone@@', address: { address1: '@@address1@@', city: 'New York', country: 'United States', postal_code: '10112' } });
  const cases = {
    get: { paths: Array.from({ length: 1000 }, (_, i) => `/api/v1/session/ses_${i}`), headers: { authorization: 'Bearer t' } },
    check: { method: 'POST', paths: ['/api/v1/event'], body: body.replace(/@@\w+@@/g, 'x') },
    check_varied: { method: 'POST', paths: ['/api/v1/event'], varied: body },
  };
  const threads = config.wrkThreads;
  const runs = [];
  for (let r = 0; r < config.rounds; r++) {
    for (const t of r % 2 ? [2, 1] : [1, 2]) {
      for (const [key, opts] of Object.entries(cases)) {
        note(`${key} -t${t} (round ${r + 1} of ${config.rounds})`);
        config.wrkThreads = t;
        runs.push({ key, t, ...(await runWrk(bare.origin, { ...opts, pid: bare.pid })) });
        await sleep(300);
      }
    }
  }
  config.wrkThreads = threads;
  await bare.stop();
  const out = {};
  const rows = [];
  for (const key of Object.keys(cases)) {
    for (const t of [1, 2]) {
      const rs = runs.filter((x) => x.key === key && x.t === t);
      const m = (k) => round(median(rs.map((x) => x[k])), 2);
      out[`${key}_t${t}`] = { rps: m('rps'), server_cores: m('server_cores'), wrk_cores: m('wrk_cores'), other_cores: m('other_cores'), p99_ms: m('p99_ms'), runs: rs };
      const wrkUs = median(rs.map((x) => (x.wrk_cores * 1e6) / x.rps));
      rows.push([key, `-t${t}`, `${Math.round(m('rps'))}/s`, rs.map((x) => x.server_cores).join(' / '), `${m('wrk_cores')}`, `${round(wrkUs, 1)}`, `${m('server_cpu_us_per_req')}`, `${m('other_cores')}`, `${m('p99_ms')}`]);
    }
  }
  table(rows, ['case', 'wrk', 'bare req/s', 'bare cores per round', 'wrk cores', 'wrk µs/req', 'bare µs/req', 'others cores', 'p99 ms']);
  log('\nThe bare server is saturated at ≥ 0.9 core. wrk µs/req × the bare server\'s rate at 1 core is what wrk needs beside it.');
  return out;
}
