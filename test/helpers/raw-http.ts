// A plain node:http request on a given agent (keep-alive pools, no fetch buffering), for tests
// that hammer or kill the server.
import http from 'node:http';

export interface RawAnswer {
  status: number;
  body: string;
}

export function rawRequest(agent: http.Agent, origin: string, method: string, path: string, body?: unknown, token?: string, timeoutMs = 30_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> = {};
    if (data !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) });
    if (token) headers.authorization = `Bearer ${token}`;
    const u = new URL(path, origin);
    const req = http.request({ host: u.hostname, port: u.port, method, path: u.pathname + u.search, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(data);
  });
}
