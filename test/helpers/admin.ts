// The one management-API wrapper for a server reached over HTTP (a spawned `vtr serve`, a started
// emulator): answers the parsed JSON, and fails with the method, path, status and body on a 4xx/5xx.
export async function adminApi<T = any>(origin: string, method: string, path: string, body?: unknown, adminToken?: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (adminToken) headers.authorization = `Bearer ${adminToken}`;
  const res = await fetch(`${origin}/_vtr/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} /_vtr/api${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A webhook to `url` on the default site of the server at `origin`, and (unless view: false) a view matching every session. */
export async function wireWebhook(origin: string, url: string, { view = true } = {}): Promise<{ webhook_id: string; secret: string }> {
  const site = (await adminApi(origin, 'GET', '/sites/default')).site_id;
  const hook = await adminApi(origin, 'POST', `/sites/${site}/webhooks`, { url });
  if (view) await adminApi(origin, 'POST', `/sites/${site}/views`, { name: 'All', filter: 'page_views >= 1', trigger_webhooks: true });
  return hook;
}

/** A new session on the default site of the server at `origin`. */
export async function newSessionAt(origin: string): Promise<any> {
  return adminApi(origin, 'POST', `/sites/${(await adminApi(origin, 'GET', '/sites/default')).site_id}/sessions`, {});
}
