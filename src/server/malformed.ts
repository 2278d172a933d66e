// Requests too malformed to reach a route still get the contract's JSON error shape: those Node's
// HTTP parser refuses (a garbage request line, headers over its size limit, a bad Content-Length or
// chunk), HTTP/1.1 ones without a Host header (an HTTP/1.0 one without it is served), those the
// Hono adapter cannot turn into a URL (`OPTIONS *`, a bad Host header), and CONNECT (the emulator
// is no proxy).
// Node and the adapter would otherwise answer a bare 400/431 with an empty body.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { VtrError } from '../domain/errors.js';
import { errorPayload } from './http.js';

/** The error for a request Node's parser refused. */
function clientErrorOf(err: Error & { code?: string }): VtrError {
  if (err.code === 'HPE_HEADER_OVERFLOW') return new VtrError('headers_too_large', 'the request line and headers are too large (16 KiB in all at most)');
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new VtrError('request_timeout', 'the request did not arrive in time');
  if (err.code === 'HPE_INVALID_CHUNK_SIZE' || err.code === 'HPE_STRICT' || err.code === 'HPE_INVALID_EOF_STATE') {
    return new VtrError('invalid_request', `the request body is not valid chunked encoding (${err.code})`);
  }
  return new VtrError('invalid_request', `the request is not valid HTTP/1.1 (${err.code ?? 'parse error'})`);
}

/** The raw answer for a request Node's parser refused; the connection is closed after it. */
export function clientErrorResponse(err: Error & { code?: string }): string {
  return rawErrorResponse(clientErrorOf(err));
}

/** An error as raw HTTP/1.1 bytes, for a socket no response object stands for; then it closes. */
function rawErrorResponse(error: VtrError): string {
  const { status } = error;
  const body = JSON.stringify(error.toJSON());
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
}

/** For the server's 'clientError' event. */
export function onClientError(err: Error & { code?: string }, socket: Socket): void {
  const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  // A connection reset, or one already answered (Node's own timeout handling): nothing to say.
  if (err.code === 'ECONNRESET' || !socket.writable || (res && res.headersSent)) {
    socket.destroy();
    return;
  }
  if (res) {
    // Its headers were read and a route is waiting for the rest of the body, which cannot be read
    // (a bad chunk): answer through the request's own response, then close.
    answerAndClose(res, clientErrorOf(err));
    return;
  }
  socket.end(clientErrorResponse(err));
}

/** For the server's 'connect' event: without it Node closes the socket and the client learns nothing. */
export function onConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  socket.end(rawErrorResponse(new VtrError('invalid_request', 'CONNECT is for proxies, and the emulator is not one; send the request itself (GET, POST, ...)')));
}

/** For the Hono adapter's errorHandler: a request it could not build (bad URL or Host) is a 400. */
export function adapterErrorResponse(err: unknown): Response {
  const refused = err instanceof Error && err.name === 'RequestError';
  const { status, body } = errorPayload(refused ? new VtrError('invalid_request', `the request's target or Host header is not valid: ${err.message}`) : err);
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * A request without a Host header. HTTP/1.1 requires one: a 400 in the contract's shape (true:
 * answered). HTTP/1.0 does not: the address the request reached stands in for it (RFC 9112 §3.3).
 */
export function missingHost(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.headers.host !== undefined || req.httpVersionMajor !== 1) return false;
  if (req.httpVersionMinor === 0) {
    req.headers.host = authorityOf(req.socket.localAddress, req.socket.localPort);
    return false;
  }
  answerAndClose(res, new VtrError('invalid_request', 'an HTTP/1.1 request needs a Host header'));
  return true;
}

/** `127.0.0.1:8787`, `[::1]:8787`: an IPv4 address mapped into IPv6 is written as IPv4. */
function authorityOf(address: string | undefined, port: number | undefined): string {
  const ip = (address ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  return `${ip.includes(':') ? `[${ip}]` : ip}${port ? `:${port}` : ''}`;
}

/** The error in the contract's JSON shape, then the connection closes. */
function answerAndClose(res: ServerResponse, error: VtrError): void {
  const body = JSON.stringify(error.toJSON());
  res.writeHead(error.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
}
