import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, type ServerProcess } from '../helpers/vtr-process.js';

describe('vtr serve (built binary)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer(['--memory']);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serve: prints the default site and answers health', async () => {
    expect(server.site?.secret_key).toMatch(/^sk_test_/);
    const res = await fetch(`${server.origin}/_vtr/health`);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });

  it('stream: delivers session events as server-sent events', async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${server.origin}/_vtr/api/stream?types=session.`, { signal: ctrl.signal });
    const reader = res.body!.getReader();
    let text = '';
    const created = runCli(['sessions', 'create', '--json'], { env: server.env });
    while (!text.includes('event: session.created')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    ctrl.abort();
    const r = await created;
    expect(r.code).toBe(0);
    expect(text).toContain(JSON.parse(r.stdout).session_id);
  });
});
