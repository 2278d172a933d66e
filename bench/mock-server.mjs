// A generic mock server for `npm run bench`: json-server (https://github.com/typicode/json-server),
// the most used one for Node, serving the emulator's three hot routes from an in-memory JSON
// database. A GET reads a session record; a custom event and a check each add a record, as
// json-server does with a POST. The comparison errs in its favour: none of its default
// middlewares (static files, gzip, CORS, request log), no validation, no checks, and nothing
// persisted (its file-backed default rewrites the whole JSON file on every write).
//
//   node bench/mock-server.mjs <db.json>   ({"sessions": [{"id": …, …}, …]})
// Prints {"port": N} on stdout once listening.
import { readFileSync } from 'node:fs';
import jsonServer from 'json-server';

const db = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const app = jsonServer.create();
app.use(
  jsonServer.rewriter({
    '/api/v1/session/:id/event': '/sessions/:id/events',
    '/api/v1/session/:id': '/sessions/:id',
    '/api/v1/event': '/checks',
  }),
);
app.use(jsonServer.router({ events: [], checks: [], ...db }));

const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
server.keepAliveTimeout = 5000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
