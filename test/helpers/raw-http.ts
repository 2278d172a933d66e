// The one plain node:http client of the tests: a given agent (keep-alive pools, no fetch buffering),
// any headers (Host included, which fetch will not send), raw or chunked bodies. For tests that
// hammer, kill or trick the server.
import http from 'node:http';

export interface RawAnswer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

export interface RawOptions {
  /** Sent as is (string or bytes). */
  body?: string | Buffer;
  headers?: Record<string, string | number>;
  /** Transfer-Encoding: chunked instead of a Content-Length. */
  chunked?: boolean;
  timeoutMs?: number;
}

/** One request; rejects on a transport error (and synchronously on headers node:http refuses). */
export function httpRequest(agent: http.Agent | undefined, origin: string, method: string, path: string, o: RawOptions = {}): Promise<RawAnswer> {
  const headers: Record<string, string | number> = { ...(o.headers ?? {}) };
  if (o.body !== undefined && !o.chunked && headers['content-length'] === undefined) headers['content-length'] = Buffer.byteLength(o.body);
  // The path goes out as given ("//etc/passwd" too): only the origin is parsed.
  const u = new URL(origin);
  // Built outside the promise: headers node:http refuses throw here, synchronously.
  const req = http.request({ host: u.hostname, port: u.port, method, path, headers, agent });
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', reject);
    });
    req.setTimeout(o.timeoutMs ?? 30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
  req.end(o.body);
  return answer;
}

/** A JSON request (body serialised, bearer token when given). */
export function rawRequest(agent: http.Agent | undefined, origin: string, method: string, path: string, body?: unknown, token?: string, timeoutMs = 30_000): Promise<RawAnswer> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = {};
  if (data !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  return httpRequest(agent, origin, method, path, { body: data, headers, timeoutMs });
}
