// SMTP servers for notification tests: a mail catcher (smtp-server), and one that takes the
// connection but never answers (a send that hangs until the transport's timeouts).
import { SMTPServer } from 'smtp-server';
import { createServer, type AddressInfo, type Socket } from 'node:net';

export interface Mail {
  from: string;
  to: string[];
  raw: string;
  /** Whether the session was on TLS (after STARTTLS) when the mail came. */
  secure: boolean;
}

/** `hold`: each mail is acknowledged only once it settles (a send the test lets finish when it says). */
export async function startSmtp(opts: { starttls?: boolean; port?: number; hold?: Promise<void> } = {}): Promise<{ url: string; mails: Mail[]; close(): Promise<void> }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: opts.starttls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        mails.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw, secure: session.secure });
        void (opts.hold ?? Promise.resolve()).then(() => callback());
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Accepts connections and never says a word; `connections` counts them. `close` cuts them. */
export async function startSilentSmtp(): Promise<{ url: string; connections(): number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createServer((s) => {
    count++;
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    connections: () => count,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
