// A real HTTP server on loopback for one test, closed after it (afterEach, registered by importing this).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

let server: Server | null = null;
afterEach(() => closeServer());

/** Starts the test's server with `handler`; its origin (`http://127.0.0.1:<port>`). */
export async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the test's server now (a server gone before the request). */
export async function closeServer(): Promise<void> {
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = null;
}
