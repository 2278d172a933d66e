// `vtr notifications list --full` prints whole mails: their subjects and bodies carry names and URLs
// (an old export's view name may hold control characters), shown escaped as every other human output.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServer, tempDir } from '../helpers/vtr-process.js';
import { freePort } from '../helpers/cli-process.js';
import { waitUntil } from '../helpers/receiver.js';
import { adminApi, newSessionAt, wireWebhook } from '../helpers/admin.js';

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe('notifications list --full (built binary)', { timeout: 60_000 }, () => {
  it('notifications list --full: control characters in a subject or body are shown escaped, line breaks kept', async () => {
    const s = await startServer(['--memory', '--retry-schedule', '10ms,10ms,10ms,10ms,10ms']);
    cleanup.push(() => s.stop('SIGKILL'));
    // Nothing listens there: the event fails and its mail is written.
    await wireWebhook(s.origin, `http://127.0.0.1:${await freePort()}/hook`);
    await newSessionAt(s.origin);
    await waitUntil(async () => (await adminApi<unknown[]>(s.origin, 'GET', '/notifications')).length === 1 || null, 20_000);

    const file = join(tempDir(), 'state.json');
    expect((await runCli(['state', 'export', file], { env: s.env })).code).toBe(0);
    const state = JSON.parse(readFileSync(file, 'utf8'));
    const [n] = state.tables.notifications;
    n.subject = `${n.subject}\u001b[2J\u001b]0;title\u0007`;
    n.body = n.body.replace('Saved view:   All', 'Saved view:   All\u001b[31m\r\u202eevil');
    writeFileSync(file, JSON.stringify(state));
    expect((await runCli(['state', 'import', file, '--yes'], { env: s.env })).code).toBe(0);

    const r = await runCli(['notifications', 'list', '--full', '--no-color'], { env: s.env });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202e]/);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('Subject: [vtr] Webhook event failed: All\\u001b[2J\\u001b]0;title\\u0007');
    expect(lines.find((l) => l.startsWith('Saved view:'))).toMatch(/^Saved view: {3}All\\u001b\[31m\\r\\u202eevil \(view_\w+\)$/);
    // The body's own line breaks stay line breaks.
    expect(lines.find((l) => l.startsWith('Session:'))).toMatch(/^Session: {6}ses_\w+$/);
    // --json stays the data as it is.
    const json = JSON.parse((await runCli(['notifications', 'list', '--json'], { env: s.env })).stdout);
    expect(json[0].subject).toBe(n.subject);
    expect(json[0].body).toBe(n.body);
  });
});
