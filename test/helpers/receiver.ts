// A webhook receiver for tests (node:http): records every delivery and answers as told.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pollUntil } from './poll.js';

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, any>;
  /** Index among all deliveries, from 0. */
  n: number;
}

/** How to answer a delivery: a status, or 'hang' (never answer until close()). */
export type Answer = number | 'hang' | { status: number; delayMs?: number; headers?: Record<string, string> };

export interface Receiver {
  url: string;
  port: number;
  deliveries: Delivery[];
  /** Changes how the next deliveries are answered. */
  answer(fn: (d: Delivery) => Answer): void;
  /** Cuts the connections of deliveries left hanging (the sender sees a reset). */
  releaseHanging(): void;
  /** Waits until `pred` holds over the deliveries (polling; generous timeout). */
  waitFor(pred: (ds: Delivery[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(opts: { port?: number; answer?: (d: Delivery) => Answer } = {}): Promise<Receiver> {
  let answer = opts.answer ?? (() => 200);
  const deliveries: Delivery[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, any> = {};
      try {
        json = JSON.parse(body);
      } catch {
        // not JSON
      }
      const d: Delivery = { headers: req.headers, body, json, n: deliveries.length };
      deliveries.push(d);
      const a = answer(d);
      if (a === 'hang') {
        hanging.add(res);
        return;
      }
      const { status, delayMs = 0, headers = {} } = typeof a === 'number' ? { status: a } : a;
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'text/plain', ...headers });
        res.end('ok');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    deliveries,
    answer(fn) {
      answer = fn;
    },
    releaseHanging() {
      for (const res of hanging) res.destroy();
      hanging.clear();
    },
    waitFor: async (pred, timeoutMs = 20_000) => void (await waitUntil(() => pred(deliveries), timeoutMs, () => `${deliveries.length} deliveries`)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The shared poll-until (test/helpers/poll.ts), under the name the webhook tests use. */
export const waitUntil = pollUntil;
