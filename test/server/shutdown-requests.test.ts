// Stopping the emulator under keep-alive traffic: every request it received is answered, the
// answers given while closing carry `Connection: close`, and idle connections are closed. A client
// sees an answer or a closed connection, never a request swallowed.
import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { createEmulator } from '../../src/emulator.js';

type Emu = ReturnType<typeof createEmulator>;
let emu: Emu | null = null;
afterEach(async () => {
  await emu?.close().catch(() => undefined);
  emu = null;
});

/** A raw keep-alive connection: send a request, read its answer (head and body) or the connection's end. */
function connection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let buf = Buffer.alloc(0);
  let ended = false;
  let waiter: (() => void) | null = null;
  socket.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    waiter?.();
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    ended = true;
    waiter?.();
  });
  const answer = () => {
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const head = buf.subarray(0, end).toString();
    const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (buf.length < end + 4 + length) return null;
    const body = buf.subarray(end + 4, end + 4 + length).toString();
    buf = buf.subarray(end + 4 + length);
    return { head, body, status: Number(head.split(' ')[1]) };
  };
  return {
    socket,
    ready: new Promise<void>((resolve) => socket.once('connect', () => resolve())),
    write: (text: string) => socket.write(text),
    /** The next answer, or null once the connection ended without one. */
    next(): Promise<{ head: string; body: string; status: number } | null> {
      return new Promise((resolve) => {
        const check = () => {
          const a = answer();
          if (a) resolve(a);
          else if (ended) resolve(null);
          else return;
          waiter = null;
        };
        waiter = check;
        check();
      });
    },
    closed: () => new Promise<void>((resolve) => (ended ? resolve() : socket.once('close', () => resolve()))),
  };
}

async function started() {
  emu = createEmulator({ dbPath: ':memory:' });
  const { port } = await emu.listen(0, '127.0.0.1');
  const token = emu.bootstrap!.token.token;
  const created = await emu.app.request(`/_vtr/api/sites/${emu.bootstrap!.site.site_id}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const sessionId = ((await created.json()) as { session_id: string }).session_id;
  const get = `GET /api/v1/session/${sessionId} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`;
  const post = (name: string) => {
    const body = JSON.stringify({ name });
    return `POST /api/v1/session/${sessionId}/event HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  };
  return { port, get, post, sessionId, emu: emu! };
}

describe('closing under keep-alive traffic', () => {
  it('close: a request received but not yet read when closing starts is answered, with Connection: close', async () => {
    const { port, get, post, emu } = await started();
    const conns = Array.from({ length: 8 }, () => connection(port));
    for (const c of conns) {
      await c.ready;
      c.write(get);
      expect((await c.next())?.status).toBe(200); // an idle keep-alive connection now
    }
    // The requests reach the server's socket buffers; closing starts before it reads them.
    conns.forEach((c, i) => c.write(i % 2 ? get : post(`late-${i}`)));
    const closing = emu.close();
    const answers = await Promise.all(conns.map((c) => c.next()));
    for (const a of answers) {
      expect(a?.status).toBe(200);
      expect(a?.head).toMatch(/\r\nConnection: close/i);
    }
    await Promise.all(conns.map((c) => c.closed()));
    await closing;
  });

  it('close: a request in flight when closing starts is answered with Connection: close; idle connections are closed', async () => {
    const { port, get, post, emu } = await started();
    const busy = connection(port);
    const idle = connection(port);
    await Promise.all([busy.ready, idle.ready]);
    idle.write(get);
    expect((await idle.next())?.status).toBe(200);
    const whole = post('in-flight');
    const cut = whole.length - 5;
    busy.write(whole.slice(0, cut)); // headers and part of the body
    await new Promise((r) => setTimeout(r, 50));
    const closing = emu.close();
    await idle.closed();
    busy.write(whole.slice(cut));
    const a = await busy.next();
    expect(a?.status).toBe(200);
    expect(a?.head).toMatch(/\r\nConnection: close/i);
    await busy.closed();
    await closing;
  });
});
