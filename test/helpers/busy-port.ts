// A port something else is listening on, for tests of what vtr says when its port is taken.
import { createServer, type Server } from 'node:net';

const open: Server[] = [];

/** Listens on a free port of 127.0.0.1 and gives its number; closeBusyPorts() frees them. */
export async function busyPort(): Promise<number> {
  // Reads what a connection sends and answers nothing, so one that hangs up is closed and close() ends.
  const s = createServer((socket) => socket.resume());
  open.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return (s.address() as { port: number }).port;
}

/** Frees every port busyPort() took; resolves once they are closed (a port nothing listens on). */
export async function closeBusyPorts(): Promise<void> {
  await Promise.all(open.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
}
