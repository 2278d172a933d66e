// The baseline for `npm run bench`: a bare node:http server that answers every request with fixed
// JSON bytes (the same bytes the emulator answers), after reading the request body. No routing
// beyond method + path shape, no parsing, no storage: the ceiling of what Node serves on this machine.
//
//   node bench/bare-server.mjs <responses.json>
//   responses.json: { "get": "<body>", "event": "<body>", "check": "<body>" }
//   ("check" answers every POST /api/v1/event, fixed or varied: the body is read, never parsed.)
// Prints {"port": N} on stdout once listening.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const responses = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const bytes = Object.fromEntries(Object.entries(responses).map(([k, v]) => [k, Buffer.from(v)]));

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = req.method === 'GET' ? bytes.get : req.url.startsWith('/api/v1/session/') ? bytes.event : bytes.check;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
