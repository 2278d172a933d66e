// The framework's own floor for `npm run bench -- --floor`: the emulator's three hot routes as a
// Hono app on @hono/node-server (vtr's own stack) that answers the same fixed bytes as
// bare-server.mjs, after reading a POST's body. Between it and bare is what the framework costs;
// between it and vtr, everything vtr does for a request.
//
//   node bench/hono-floor.mjs <responses.json> [work µs]   (the file bare-server.mjs reads)
// With a work figure, each handler first spins that many µs of CPU (`--floor-work`): what a route's
// own work costs in a flood, the kernel's share included.
// Prints {"port": N} on stdout once listening.
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';

const responses = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const bytes = Object.fromEntries(Object.entries(responses).map(([k, v]) => [k, Buffer.from(v)]));
const json = { 'content-type': 'application/json' };
const workMs = Number(process.argv[3] ?? 0) / 1000;
const work = () => {
  if (workMs === 0) return;
  const end = performance.now() + workMs;
  while (performance.now() < end);
};

const app = new Hono();
app.get('/api/v1/session/:id', (c) => {
  work();
  return c.body(bytes.get, 200, json);
});
app.post('/api/v1/session/:id/event', async (c) => {
  await c.req.arrayBuffer();
  work();
  return c.body(bytes.event, 200, json);
});
app.post('/api/v1/event', async (c) => {
  await c.req.arrayBuffer();
  work();
  return c.body(bytes.check, 200, json);
});

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`${JSON.stringify({ port: info.port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
