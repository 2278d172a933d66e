import { afterEach, describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/context.js';
import { run } from '../../../src/cli/commands/notifications/list.js';
import { setEmulatedTimes } from '../../../src/cli/output.js';
import type { Notification } from '../../../src/domain/webhooks.js';

const mail = (over: Partial<Notification> = {}): Notification => ({
  notification_id: 'ntf_1',
  kind: 'webhook_event_failed',
  site_id: 'site_1',
  webhook_id: 'wh_1',
  webhook_event_id: 'msg_1',
  to: 'owner@example.com',
  subject: '[vtr] Webhook event failed: Bad traffic',
  body: 'A webhook event could not be delivered.',
  created_at: '2026-12-01T12:46:25.369069',
  sent_at: null,
  send_error: null,
  ...over,
});

/** A context on an emulator with a frozen clock whose outbox holds `list`; what it prints is in `out`. */
function outbox(list: Notification[]): { ctx: CliContext; out: string[] } {
  const out: string[] = [];
  const client = {
    admin: async (_method: string, path: string) => (path === '/clock' ? { mode: 'frozen', now: '2026-12-01T12:47:23.000000' } : list),
  };
  const io = { stdout: { write: (s: string) => out.push(s) }, stderr: { write: () => true }, stdinIsTTY: false };
  const ctx = { io, config: { json: false, quiet: true }, interactive: false, client: async () => client, info: () => {} };
  return { ctx: ctx as unknown as CliContext, out };
}

afterEach(() => setEmulatedTimes(false));

describe('vtr notifications list', () => {
  it('notifications list: under a test clock the column header says emulated, as webhooks list does, and each cell only its zone', async () => {
    // An earlier answer told the CLI the clock is not the real one.
    setEmulatedTimes(true);
    const { ctx, out } = outbox([mail()]);
    await run({ limit: '50' }, ctx);
    const [head, row] = out.join('').split('\n');
    expect(head).toMatch(/^CREATED \(UTC, EMULATED\) +KIND/);
    expect(row).toMatch(/^2026-12-01 12:46:25 UTC +webhook_event_failed/);
    expect(row).not.toContain('(emulated)');
  });

  it('notifications list --full: a mail with no recipient says the site has no owner email and how to set one', async () => {
    const { ctx, out } = outbox([mail({ to: null, site_id: 'site_Xy' })]);
    await run({ limit: '50', full: true }, ctx);
    const first = out.join('').split('\n')[0];
    expect(first).toContain('to nobody: site site_Xy has no owner email');
    expect(first).toContain('vtr sites update site_Xy --owner-email <email>');
  });
});
