// The baseline for `npm run bench`: a bare node:http server that answers every request with fixed
// JSON bytes (the same bytes the emulator answers), after reading the request body. No routing
// beyond method + path shape, no parsing, no storage: the ceiling of what Node serves on this machine.
//
//   node bench/bare-server.mjs <responses.json> [work-µs]
//   responses.json: { "get": "<body>", "event": "<body>", "check": "<body>" }
//   ("check" answers every POST /api/v1/event, including the check_unique case: the body is read,
//   never parsed, so varied request bodies all get the same captured bytes.)
// With work-µs, each request first spins the CPU for that long (the headroom calibration of
// `npm run bench`: what a fixed amount of route work costs a node:http server on this machine).
// Prints {"port": N} on stdout once listening.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const responses = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const bytes = Object.fromEntries(Object.entries(responses).map(([k, v]) => [k, Buffer.from(v)]));
// A fixed amount of computation, not a wall-clock wait: a slice of time taken by another process
// must not count as work done. Calibrated at start-up on the fastest of several 20 ms slices.
const workUs = Number(process.argv[3] ?? 0);
let sink = 0;
const loop = (n) => {
  let x = sink;
  for (let i = 0; i < n; i++) x = (x * 1103515245 + 12345) | 0;
  sink = x;
};
let perUs = 0;
if (workUs > 0) {
  for (let slice = 0; slice < 10; slice++) {
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < 20) (loop(10_000), (n += 10_000));
    perUs = Math.max(perUs, n / ((performance.now() - t0) * 1000));
  }
}
const iterations = Math.round(workUs * perUs);

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (iterations > 0) loop(iterations);
    const body =
      req.method === 'GET' ? bytes.get : req.url.endsWith('/event') && req.url.includes('/session/') ? bytes.event : bytes.check;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
