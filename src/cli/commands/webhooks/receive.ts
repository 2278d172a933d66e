// `vtr webhooks receive`: a local endpoint for debugging deliveries. Prints each one (headers,
// body, signature verdict with --secret) and answers 2xx, or fails on purpose as told.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseDuration } from '../../../domain/time.js';
import { bindAddress } from '../../../domain/ip-intel.js';
import type { CliContext } from '../../context.js';
import { OperationError, UsageError } from '../../errors.js';
import { printable } from '../../output.js';
import { stderrStyle, style } from '../../style.js';
import { createVerifier, type Verifier } from './verify.js';
import { portInUse, portOwner } from './port-owner.js';
import { utcText } from '../../time-display.js';
import { wholeNumber } from '../../whole-number.js';

export interface ReceiveOptions {
  port: string;
  host: string;
  fail?: string;
  status?: string;
  delay?: string;
  secret?: string;
  rejectInvalid?: boolean;
}

const MAX_BODY = 5 * 1024 * 1024;
// A timer longer than this fires at once (Node clamps it to 1 ms): longer delays wait in steps.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Waits `ms`, however long; false when `signal` (the receiver stopping) ends the wait first. */
async function hold(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    for (let left = ms; left > 0; left -= MAX_TIMER_MS) await sleep(Math.min(left, MAX_TIMER_MS), undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY) chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function run(o: ReceiveOptions, ctx: CliContext): Promise<void> {
  const port = wholeNumber('--port', o.port, 0, 65535);
  if (o.fail !== undefined && o.status !== undefined) throw new UsageError('give --fail N or --status C, not both');
  let failLeft = o.fail !== undefined ? wholeNumber('--fail', o.fail, 0, 1_000_000) : 0;
  const fixedStatus = o.status !== undefined ? wholeNumber('--status', o.status, 200, 599) : null;
  const delayMs = o.delay !== undefined ? parseDuration(o.delay) : 0;
  if (delayMs == null) throw new UsageError(`--delay: "${o.delay}" is not a duration; use e.g. 500ms, 2s`);
  // A bare number is seconds: say so, rather than echo "after 2".
  const delayShown = o.delay === undefined ? '' : /^\s*\d+(\.\d+)?\s*$/.test(o.delay) ? `${o.delay.trim()}s` : o.delay.trim();
  let verifier: Verifier | null = null;
  if (o.secret) {
    try {
      // Every webhook secret is whsec_ + base64: anything else would silently verify nothing.
      if (!o.secret.startsWith('whsec_')) throw new Error('no whsec_ prefix');
      verifier = await createVerifier(o.secret);
    } catch {
      throw new UsageError('--secret: not a webhook secret; copy it from `vtr webhooks secret <id>` (whsec_...)');
    }
  }
  if (o.rejectInvalid && !verifier) throw new UsageError('--reject-invalid needs --secret whsec_… (vtr webhooks secret <webhook-id>) to tell which signatures verify');
  const c = style(ctx);
  let count = 0;
  // Ctrl-C ends every --delay under way, so the receiver stops at once; `handling` lets each
  // delivery print before the process exits.
  const stopping = new AbortController();
  const handling = new Set<Promise<void>>();

  const server = createServer((req, res) => {
    const done = handle(req, res).finally(() => handling.delete(done));
    handling.add(done);
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Deliveries are POSTs. A browser opened on the URL (and its favicon request) is not one: it
    // must not use up --fail answers meant for the deliveries, nor show among them.
    if (req.method !== 'POST') {
      req.resume();
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain; charset=utf-8' });
      res.end('vtr webhooks receive is listening here: webhook deliveries are POSTed to this URL.\n');
      ctx.info(stderrStyle(ctx).dim(`(${printable(`${req.method} ${req.url}`)} answered 405: not a webhook delivery, which is a POST)`));
      return;
    }
    // Stamped on arrival: with --delay the answer goes later, but this is when it was received.
    const receivedAt = new Date().toISOString(); // real time: this is a display of the local receiver
    // A sender that gives up first (its timeout, shorter than --delay) never sees the answer: say so.
    let senderClosed = false;
    res.once('close', () => {
      if (!res.writableFinished) senderClosed = true;
    });
    const body = await readBody(req).catch(() => '');
    const n = ++count;
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    const verdict = verifier?.verify(body, headers) ?? null;
    // A refused signature is answered as a real receiver would, and uses up no --fail answer.
    const rejected = o.rejectInvalid === true && verdict?.signature === 'invalid';
    const status = rejected ? 401 : (fixedStatus ?? (failLeft > 0 ? (failLeft--, 500) : 200));
    let parsed: unknown = body;
    try {
      parsed = JSON.parse(body);
    } catch {
      // not JSON: shown as text
    }
    const stopped = delayMs > 0 && !(await hold(delayMs, stopping.signal));
    const answered = !senderClosed && !stopped;
    if (answered) {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ received: status < 300 }));
    }
    if (ctx.config.json) {
      // `status` is what the sender got: nothing (null) when it hung up or Ctrl-C came first.
      ctx.io.stdout.write(
        `${JSON.stringify({ n, received_at: receivedAt, method: req.method, path: req.url, webhook_event_id: headers['webhook-id'] ?? null, headers, body: parsed, signature: verdict?.signature ?? null, signature_error: verdict?.error ?? null, signature_warning: verdict?.warning ?? null, status: answered ? status : null, due_status: status, sender_closed: senderClosed && !stopped, stopped })}\n`,
      );
      return;
    }
    const shown = !verdict
      ? c.dim('not checked (no --secret)')
      : verdict.signature === 'valid'
        ? c.green('✓ valid')
        : c.red(`✗ invalid (${printable(verdict.error ?? '')})`);
    const fields = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    const attempt = 'attempt' in fields ? ` attempt ${String(fields.attempt)}` : '';
    // Two clocks meet here: this machine's (received, webhook-timestamp) and the emulator's
    // (triggered_at, frozen or moved under --clock frozen/manual). Each says which it is.
    const signedAt = Number(headers['webhook-timestamp']);
    const lines = [
      c.bold(printable(`#${n} ${req.method} ${req.url}  ${headers['webhook-id'] ?? ''}${attempt}`)),
      `  received:  ${utcText(receivedAt)} (real time)`,
      ...(Number.isFinite(signedAt) && signedAt > 0 ? [`  signed:    ${utcText(new Date(signedAt * 1000).toISOString())} (real time, webhook-timestamp)`] : []),
      ...(typeof fields.triggered_at === 'string' ? [`  triggered: ${utcText(fields.triggered_at)} (the emulator's clock; emulated under --clock frozen/manual)`] : []),
      `  signature: ${shown}`,
      stopped
        ? `  answered:  ${c.red(`nothing: stopped (Ctrl-C) before the ${status} due after ${delayShown}: the sender sees its connection closed, a failed attempt`)}`
        : senderClosed
        ? `  answered:  ${c.red(`nothing: the sender hung up before the ${status} due after ${delayShown}: its timeout (vtr serve --webhook-timeout) is shorter than --delay, and it records a failed attempt; or it stopped: a vtr serve killed meanwhile sends this attempt again (same webhook-id) once restarted`)}`
        : `  answered:  ${status < 300 ? c.green(String(status)) : c.red(String(status))}${delayMs ? ` after ${delayShown}` : ''}${rejected ? ' (signature invalid, --reject-invalid)' : ''}`,
      '  headers:',
      ...Object.entries(headers).map(([k, v]) => `    ${printable(`${k}: ${v}`)}`),
      '  body:',
      // Whatever was POSTed is shown line by line, each line's control characters escaped.
      ...(typeof parsed === 'string' ? parsed : JSON.stringify(parsed, null, 2)).split('\n').map((l) => `    ${printable(l)}`),
      '',
    ];
    ctx.io.stdout.write(`${lines.join('\n')}\n`);
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') void portOwner(o.host, port).then((owner) => reject(new OperationError(portInUse(port, owner))));
      else if (err.code === 'ENOTFOUND' || err.code === 'EADDRNOTAVAIL' || err.code === 'EAI_AGAIN') {
        reject(new OperationError(`--host ${o.host}: cannot listen there (${err.code}): give a name or address of this machine, e.g. 127.0.0.1`));
      } else reject(err);
    });
    server.listen(port, bindAddress(o.host), () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.address.includes(':') ? `[${addr.address}]` : addr.address;
  const url = `http://${host}:${addr.port}/`;
  // Ctrl-C is handled before anything says the receiver listens: a script that stops it as soon as
  // it reads that line must not kill it by the signal's default action.
  let stopped!: () => void;
  const done = new Promise<void>((resolve) => (stopped = resolve));
  const stop = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    stopping.abort();
    server.close(() => void Promise.all(handling).then(() => stopped()));
    server.closeAllConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  ctx.info(`Listening for webhooks on ${url} (Ctrl-C to stop)`);
  const after = delayMs > 0 ? ` after ${delayShown}` : '';
  ctx.info(fixedStatus != null ? `Answering ${fixedStatus}${after} to every delivery.` : failLeft > 0 ? `Answering 500${after} to the first ${failLeft === 1 ? 'delivery' : `${failLeft} deliveries`}, then 200${after}.` : `Answering 200${after}.`);
  if (o.rejectInvalid) ctx.info(`A delivery whose signature does not verify is answered 401${after} instead (--reject-invalid).`);
  ctx.info(`Point a webhook at it: vtr webhooks create --url ${url}`);

  await done;
}
