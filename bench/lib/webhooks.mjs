// Webhook dispatch: sessions matching a triggering view, created through the management API; a
// local receiver records when each event's first attempt arrives (change → first attempt).
import { createServer } from 'node:http';
import { config } from './config.mjs';
import { createSessions, startServe } from './procs.mjs';
import { call, log, pct, round, sleep, table } from './util.mjs';

function startReceiver({ failFirst }) {
  const seen = new Map(); // webhook-id -> { triggeredMs, firstMs, deliveredMs, attempts }
  const server = createServer((req, res) => {
    const arrived = Date.now();
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const id = req.headers['webhook-id'];
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {}
      let rec = seen.get(id);
      if (!rec) {
        rec = { triggeredMs: Date.parse(`${body.triggered_at}Z`), firstMs: arrived, deliveredMs: null, attempts: 0 };
        seen.set(id, rec);
      }
      rec.attempts++;
      if (failFirst && rec.attempts === 1) return res.writeHead(500).end();
      rec.deliveredMs ??= arrived;
      res.writeHead(204).end();
    });
  });
  return new Promise((res) => server.listen(0, '127.0.0.1', () => res({ url: `http://127.0.0.1:${server.address().port}/hook`, seen, close: () => server.close() })));
}

async function webhookRun(name, failFirst, { sessions = config.webhookSessions, concurrency = 8 } = {}) {
  const emu = await startServe(`webhooks-${name}`);
  const site = emu.site.site_id;
  const view = await call(emu.origin, 'POST', `/_vtr/api/sites/${site}/views`, { body: { name: 'bench', filter: 'entry_path = "/bench-webhook"', trigger_webhooks: true } });
  if (view.status !== 201 && view.status !== 200) throw new Error(`creating a view answered ${view.status}: ${view.text.slice(0, 300)}`);
  const rcv = await startReceiver({ failFirst });
  const hook = await call(emu.origin, 'POST', `/_vtr/api/sites/${site}/webhooks`, { body: { url: rcv.url } });
  if (hook.status !== 201 && hook.status !== 200) throw new Error(`creating a webhook answered ${hook.status}: ${hook.text.slice(0, 300)}`);

  const t0 = Date.now();
  await createSessions(emu, sessions, { url: 'https://shop.example/bench-webhook' }, concurrency);
  const created = Date.now();
  const deadline = Date.now() + 120_000 + (failFirst ? 60_000 : 0);
  const delivered = () => [...rcv.seen.values()].filter((r) => r.deliveredMs != null).length;
  while (delivered() < sessions && Date.now() < deadline) await sleep(50);
  const recs = [...rcv.seen.values()];
  const lag = recs.map((r) => r.firstMs - r.triggeredMs).filter(Number.isFinite);
  const lastDelivered = Math.max(...recs.map((r) => r.deliveredMs ?? 0));
  rcv.close();
  await emu.stop();
  return {
    sessions,
    concurrency,
    events_seen: recs.length,
    delivered: delivered(),
    first_attempt_lag_ms: { p50: round(pct(lag, 50), 1), p99: round(pct(lag, 99), 1), max: round(Math.max(...lag), 1) },
    create_seconds: round((created - t0) / 1000, 2),
    total_seconds: round((lastDelivered - t0) / 1000, 2),
  };
}

export async function benchWebhooks() {
  const n = config.webhookSessions;
  log('\n## Webhook dispatch');
  log(`${n} sessions matching a triggering view, created through the management API; local receiver\n`);
  const seq = Math.min(200, n);
  const out = {
    ok: await webhookRun('ok', false),
    fail_once: await webhookRun('fail-once', true),
    // One change at a time: the dispatch latency itself, without a queue of concurrent writes.
    sequential: await webhookRun('sequential', false, { sessions: seq, concurrency: 1 }),
  };
  const rows = [
    [`receiver answers 2xx (${n} sessions, 8 in flight)`, out.ok],
    ['receiver fails each first attempt (500), default retry base 2 s', out.fail_once],
    [`one session change at a time (${seq} sessions)`, out.sequential],
  ].map(([label, r]) => [label, `${r.first_attempt_lag_ms.p50} / ${r.first_attempt_lag_ms.p99} ms`, `${r.delivered}/${r.sessions}`, `${r.create_seconds} s`, `${r.total_seconds} s`]);
  table(rows, ['scenario', 'change → first attempt p50 / p99', 'delivered', 'creating took', 'all delivered after']);
  return out;
}
