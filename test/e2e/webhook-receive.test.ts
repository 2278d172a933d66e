// `vtr webhooks receive` with the built binary, fed by a real emulator: signature verdicts, --fail,
// --delay against the emulator's webhook timeout, and requests that are not deliveries.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServer, type ServerProcess } from '../helpers/vtr-process.js';
import { freePort, spawnCli as spawnWatched } from '../helpers/cli-process.js';
import { waitUntil } from '../helpers/receiver.js';
import { adminApi, newSessionAt, wireWebhook } from '../helpers/admin.js';
import { busyPort, closeBusyPorts } from '../helpers/busy-port.js';

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const admin = <T = any>(s: ServerProcess, method: string, path: string, body?: unknown): Promise<T> => adminApi<T>(s.origin, method, path, body);
const spawnCli = (args: string[], env: Record<string, string>) => spawnWatched(args, env, cleanup);

async function serve(args: string[]): Promise<ServerProcess> {
  const s = await startServer(args);
  cleanup.push(() => s.stop('SIGKILL'));
  return s;
}

const wire = (s: ServerProcess, url: string, opts?: { view?: boolean }) => wireWebhook(s.origin, url, opts);
const newSession = (s: ServerProcess) => newSessionAt(s.origin);

describe('webhooks receive (built binary)', () => {
  it('receive: prints each delivery with its signature verdict and fails the first N on purpose', async () => {
    const s = await serve(['--memory', '--retry-base', '100ms']);
    const port = await freePort();
    const hook = await wire(s, `http://127.0.0.1:${port}/`);
    const secret = (await runCli(['webhooks', 'secret', hook.webhook_id], { env: s.env })).stdout.trim();
    expect(secret).toBe(hook.secret);
    const rcv = spawnCli(['webhooks', 'receive', '--port', String(port), '--fail', '1', '--secret', secret, '--json'], s.env);
    await rcv.waitErr(/Listening for webhooks on http:\/\/127\.0\.0\.1:\d+\//);
    await newSession(s);
    await waitUntil(() => rcv.lines().length === 2, 20_000, () => rcv.stdout() + rcv.stderr());
    const [first, second] = rcv.lines();
    expect(first).toMatchObject({ status: 500, signature: 'valid', method: 'POST', body: { attempt: 1, hook_type: 'saved_view' } });
    expect(second).toMatchObject({ status: 200, signature: 'valid', body: { attempt: 2 } });
    expect(first.headers['webhook-signature']).toMatch(/^v1,/);
    expect(await rcv.stop()).toBe(0);
    const [e] = await admin<any[]>(s, 'GET', `/webhooks/${hook.webhook_id}/events`);
    // Both attempts carry the event's id (the webhook-id header), the same on every attempt.
    expect([first.webhook_event_id, second.webhook_event_id]).toEqual([e.webhook_event_id, e.webhook_event_id]);
    expect(e).toMatchObject({ status: 'delivered', attempts: [{ status_code: 500 }, { status_code: 200 }] });
  });

  it('receive: a sender that times out during --delay is shown as never getting the answer, received when it arrived', async () => {
    const s = await serve(['--memory', '--webhook-timeout', '300ms', '--clock', 'frozen']);
    const port = await freePort();
    const hook = await wire(s, `http://127.0.0.1:${port}/`, { view: false });
    const rcv = spawnCli(['webhooks', 'receive', '--port', String(port), '--delay', '1500ms', '--json'], s.env);
    await rcv.waitErr(/Answering 200 after 1500ms\./);
    const sent = Date.now();
    await admin(s, 'POST', `/webhooks/${hook.webhook_id}/trigger`, {});
    await waitUntil(() => rcv.lines().length === 1, 20_000, () => rcv.stdout() + rcv.stderr());
    const [line] = rcv.lines();
    expect(line).toMatchObject({ status: null, due_status: 200, sender_closed: true });
    expect(Date.parse(line.received_at) - sent).toBeLessThan(1000);
    const [e] = await admin<any[]>(s, 'GET', `/webhooks/${hook.webhook_id}/events`);
    expect(e.attempts[0]).toMatchObject({ status_code: null, error: 'timed out after 300ms' });
    expect(await rcv.stop()).toBe(0);
  });

  it('receive: a sender killed during --delay is not said to record a failed attempt: it sends the attempt again once restarted', async () => {
    const s = await serve(['--memory', '--clock', 'frozen']);
    const port = await freePort();
    const hook = await wire(s, `http://127.0.0.1:${port}/`, { view: false });
    const rcv = spawnCli(['webhooks', 'receive', '--port', String(port), '--delay', '3s'], s.env);
    await rcv.waitErr(/Answering 200 after 3s\./);
    await admin(s, 'POST', `/webhooks/${hook.webhook_id}/trigger`, {});
    await new Promise((r) => setTimeout(r, 500));
    await s.stop('SIGKILL');
    await waitUntil(() => /answered:/.test(rcv.stdout()), 20_000, () => rcv.stdout() + rcv.stderr());
    expect(rcv.stdout()).toMatch(/the sender hung up before the 200 due after 3s/);
    expect(rcv.stdout()).toMatch(/or it stopped: a vtr serve killed meanwhile sends this attempt again \(same webhook-id\) once restarted/);
    expect(rcv.stdout()).not.toMatch(/, so it records a failed attempt/);
    expect(await rcv.stop()).toBe(0);
  });

  it('receive --reject-invalid: a delivery whose signature does not verify is answered 401, so the emulator records a failure and retries it; a valid one 200', async () => {
    const s = await serve(['--memory', '--clock', 'frozen']);
    const port = await freePort();
    const hook = await wire(s, `http://127.0.0.1:${port}/`, { view: false });
    const other = await wire(s, `http://127.0.0.1:${port}/other`, { view: false });
    // Verifies with the first webhook's secret: the other's deliveries do not verify.
    const rcv = spawnCli(['webhooks', 'receive', '--port', String(port), '--secret', hook.secret, '--reject-invalid', '--json'], s.env);
    await rcv.waitErr(/Answering 200\.\nA delivery whose signature does not verify is answered 401 instead \(--reject-invalid\)\./);
    await admin(s, 'POST', `/webhooks/${other.webhook_id}/trigger`, {});
    await waitUntil(() => rcv.lines().length === 1, 20_000, () => rcv.stdout() + rcv.stderr());
    expect(rcv.lines()[0]).toMatchObject({ status: 401, signature: 'invalid', path: '/other' });
    await admin(s, 'POST', `/webhooks/${hook.webhook_id}/trigger`, {});
    await waitUntil(() => rcv.lines().length === 2, 20_000, () => rcv.stdout() + rcv.stderr());
    expect(rcv.lines()[1]).toMatchObject({ status: 200, signature: 'valid', path: '/' });
    const [refused] = await admin<any[]>(s, 'GET', `/webhooks/${other.webhook_id}/events`);
    expect(refused).toMatchObject({ status: 'retrying', attempts: [{ status_code: 401 }] });
    expect(await rcv.stop()).toBe(0);
    // Without --secret nothing is verified: refused naming both flags.
    const alone = await runCli(['webhooks', 'receive', '--port', '0', '--reject-invalid']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--reject-invalid needs --secret whsec_… \(vtr webhooks secret <webhook-id>\)/);
  });

  it('receive: a browser opening the URL (GET, favicon) is answered 405 and uses up no --fail answer', async () => {
    const s = await serve(['--memory', '--clock', 'frozen']);
    const port = await freePort();
    const hook = await wire(s, `http://127.0.0.1:${port}/`, { view: false });
    const rcv = spawnCli(['webhooks', 'receive', '--port', String(port), '--fail', '1', '--json'], s.env);
    await rcv.waitErr(/Listening/);
    for (const path of ['/', '/favicon.ico']) {
      const r = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
    }
    await rcv.waitErr(/GET \/favicon\.ico answered 405/);
    await admin(s, 'POST', `/webhooks/${hook.webhook_id}/trigger`, {});
    await waitUntil(() => rcv.lines().length === 1, 20_000, () => rcv.stdout() + rcv.stderr());
    expect(rcv.lines()[0]).toMatchObject({ n: 1, method: 'POST', status: 500, body: { attempt: 1 } });
    expect(await rcv.stop()).toBe(0);
  });

  it('receive: control characters in a POST\'s path, headers or text body are shown escaped, not sent to the terminal', async () => {
    const port = await freePort();
    const rcv = spawnCli(['webhooks', 'receive', '--port', String(port), '--no-color'], {});
    await rcv.waitErr(/Listening/);
    const r = await fetch(`http://127.0.0.1:${port}/hook`, { method: 'POST', headers: { 'webhook-id': 'msg_\u0080x' }, body: 'one \u001b[31mred\u001b[0m\ntwo \u001b]0;title\u0007 \u202eend' });
    expect(r.status).toBe(200);
    await waitUntil(() => rcv.stdout().includes('two'), 20_000, () => rcv.stdout() + rcv.stderr());
    expect(rcv.stdout()).not.toMatch(/[\u001b\u0007\u0080\u202e]/);
    expect(rcv.stdout()).toContain('#1 POST /hook  msg_\\u0080x');
    expect(rcv.stdout()).toContain('    one \\u001b[31mred\\u001b[0m\n    two \\u001b]0;title\\u0007 \\u202eend');
    expect(await rcv.stop()).toBe(0);
  });

  it('receive: --delay given as a bare number is read, and shown, as seconds', async () => {
    const port = await freePort();
    const rcv = spawnCli(['webhooks', 'receive', '--port', String(port), '--delay', '2', '--fail', '1'], {});
    await rcv.waitErr(/Answering 500 after 2s to the first delivery, then 200 after 2s\./);
    expect(await rcv.stop()).toBe(0);
  });

  it('receive: a --delay longer than a timer can hold still holds the answer, rather than answering at once', async () => {
    const port = await freePort();
    const rcv = spawnCli(['webhooks', 'receive', '--port', String(port), '--delay', '999h', '--json'], {});
    await rcv.waitErr(/Answering 200 after 999h\./);
    const answered = fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then((r) => r.status, () => 'closed');
    const early = await Promise.race([answered, new Promise((r) => setTimeout(() => r('waiting'), 1000))]);
    expect(early).toBe('waiting');
    expect(rcv.stderr()).not.toMatch(/TimeoutOverflowWarning/);
  });

  it('receive: Ctrl-C while a delivery waits out --delay stops at once and says the delivery got no answer', async () => {
    const port = await freePort();
    const rcv = spawnCli(['webhooks', 'receive', '--port', String(port), '--delay', '60s'], {});
    await rcv.waitErr(/Answering 200 after 60s\./);
    void fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{"attempt":1}' }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 500));
    const asked = Date.now();
    expect(await rcv.stop()).toBe(0);
    expect(Date.now() - asked).toBeLessThan(5000);
    expect(rcv.stdout()).toMatch(/answered:  nothing: stopped \(Ctrl-C\) before the 200 due after 60s/);
    expect(rcv.stdout()).not.toMatch(/the sender hung up/);
  });

  it('receive --json: Ctrl-C while a delivery waits out --delay prints no status for it (nothing was answered), and the one that was due', async () => {
    const rcv = spawnCli(['webhooks', 'receive', '--port', '0', '--delay', '60s', '--status', '503', '--json'], {});
    await rcv.waitErr(/Answering 503 after 60s to every delivery\./);
    const url = /Listening for webhooks on (\S+)/.exec(rcv.stderr())![1];
    const cut = fetch(url, { method: 'POST', body: '{"attempt":1}' }).then((r) => r.status, () => 'closed');
    await new Promise((r) => setTimeout(r, 500));
    expect(await rcv.stop()).toBe(0);
    expect(await cut).toBe('closed');
    expect(rcv.lines()).toEqual([expect.objectContaining({ status: null, due_status: 503, stopped: true, sender_closed: false })]);
  });

  it('receive: --port of a vtr emulator (or another receive) says what listens there; a port taken by something else says it is in use', async () => {
    const s = await serve(['--memory']);
    const port = new URL(s.origin).port;
    const onEmulator = await runCli(['webhooks', 'receive', '--port', port]);
    expect(onEmulator.code).toBe(1);
    expect(onEmulator.stderr).toBe(`vtr: error: port ${port} is in use: a vtr emulator (vtr serve) is listening there, and deliveries go to a receiver on a port of its own; pick another with --port (e.g. --port 0 for any free one)\n`);
    const first = await freePort();
    const rcv = spawnCli(['webhooks', 'receive', '--port', String(first)], {});
    await rcv.waitErr(/Listening for webhooks/);
    const twice = await runCli(['webhooks', 'receive', '--port', String(first)]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(new RegExp(`^vtr: error: port ${first} is in use: another vtr webhooks receive is listening there;`));
    expect(await rcv.stop()).toBe(0);
    const other = await busyPort();
    const taken = await runCli(['webhooks', 'receive', '--port', String(other)]);
    expect(taken.stderr).toBe(`vtr: error: port ${other} is in use; pick another with --port (e.g. --port 0 for any free one)\n`);
    await closeBusyPorts();
  });

  it('receive: --host takes an IPv6 address in brackets, as URLs write it; a host of no interface is named as --host', async () => {
    const port = await freePort();
    const rcv = spawnCli(['webhooks', 'receive', '--port', String(port), '--host', '[::1]'], {});
    await rcv.waitErr(new RegExp(`Listening for webhooks on http://\\[::1\\]:${port}/`));
    expect((await fetch(`http://[::1]:${port}/`)).status).toBe(405);
    expect(await rcv.stop()).toBe(0);
    const bad = await runCli(['webhooks', 'receive', '--port', '0', '--host', 'no-such-host.invalid']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^vtr: error: --host no-such-host\.invalid: cannot listen there \((ENOTFOUND|EAI_AGAIN)\): give a name or address of this machine, e.g\. 127\.0\.0\.1\n$/);
  });
});
