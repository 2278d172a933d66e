// `emu.client` after `emu.close()`: its refusal names the call, as the helpers' do
// ("sessions.get: this emulator is closed ..."). The client, shared with the CLI, says only why.
import { ConnectionError, type ApiClient, type RequestOptions } from '../client/api-client.js';
import type { HttpMethod } from '../client/http.js';

/** `closed`: the client's message once the emulator is closed; any other error goes as it is. */
export function namedAfterClose(client: ApiClient, closed: string): ApiClient {
  const named = (call: string) => (err: unknown): never => {
    if (err instanceof ConnectionError && err.message === closed) throw new ConnectionError(err.url, err.cause, `emu.client.${call}: ${err.message}`, err.write);
    throw err;
  };
  return {
    ...client,
    api: <T = unknown>(method: HttpMethod, path: string, o?: RequestOptions) => client.api<T>(method, path, o).catch(named(`api: ${method} ${path}`)),
    check: <T = unknown>(body?: Record<string, unknown>) => client.check<T>(body).catch(named('check: POST /event')),
    admin: <T = unknown>(method: HttpMethod, path: string, o?: RequestOptions) => client.admin<T>(method, path, o).catch(named(`admin: ${method} ${path}`)),
    raw: <T = unknown>(method: HttpMethod, url: string, o?: RequestOptions) => client.raw<T>(method, url, o).catch(named(`raw: ${method} ${url}`)),
    download: (path: string) => client.download(path).catch(named(`download: GET ${path}`)),
  };
}
