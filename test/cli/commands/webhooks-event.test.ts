// `vtr webhooks event <id>` as a person reads it: an event whose attempt is due by the emulator's
// clock (the dispatcher has it, its result not written yet) says an attempt is under way, rather
// than showing a time already past as "next" above "No attempts yet".
import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../../src/domain/webhooks.js';
import { renderEvent, renderEvents } from '../../../src/cli/commands/webhooks/render.js';

const event = (o: Partial<WebhookEvent> = {}): WebhookEvent => ({
  webhook_event_id: 'msg_abcdefgh12345678', webhook_id: 'wh_abcdefgh12345678', site_id: 'site_abcdefgh12345678',
  saved_view_id: 'view_abcdefgh12345678', saved_view_name: 'Bad traffic', session_id: 'ses_abcdefgh12345678',
  status: 'pending', auto_retries_remaining: 5, next_attempt_at: '2026-11-28T10:00:00.000000',
  created_at: '2026-11-28T10:00:00.000000', triggered_at: null, attempts: [],
  ...o,
} as WebhookEvent);

describe('webhooks event: human output', () => {
  it('webhooks event: an attempt due by the emulator\'s clock is shown as under way, not as a past "next" time with "No attempts yet"', () => {
    const out = renderEvent(event(), { now: '2026-11-28T10:00:01.000000' });
    expect(out).toMatch(/next_attempt_at:\s+due since 2026-11-28 10:00:00 UTC: an attempt is under way/);
    expect(out).not.toContain('No attempts yet.');
    expect(out).toContain('No attempt recorded yet: the first is under way');
    const retrying = renderEvent(event({ status: 'retrying', attempts: [{ attempt: 1, trigger: 'auto', at: '2026-11-28T09:59:00.000000', status_code: 500, error: null, duration_ms: 3 }] }), { now: '2026-11-28T10:00:01.000000' });
    expect(retrying).toMatch(/next_attempt_at:\s+due since .*: an attempt is under way/);
  });

  it('webhooks event: a next attempt still ahead, or a finished event, shows as before', () => {
    const ahead = renderEvent(event(), { now: '2026-11-28T09:59:00.000000' });
    expect(ahead).toMatch(/next_attempt_at:\s+2026-11-28 10:00:00 UTC\n/);
    expect(ahead).toContain('No attempts yet.');
    const done = renderEvent(event({ status: 'failed', next_attempt_at: null }), { now: '2026-11-28T11:00:00.000000' });
    expect(done).not.toContain('under way');
    // Without the emulator's time (an older server), nothing is guessed.
    expect(renderEvent(event())).not.toContain('under way');
  });

  it('webhooks events: a due attempt shows "under way" in NEXT ATTEMPT, not a past time', () => {
    const out = renderEvents([event(), event({ webhook_event_id: 'msg_later00012345678', next_attempt_at: '2026-11-28T12:00:00.000000' })], false, '2026-11-28T10:00:01.000000');
    const [due, later] = out.split('\n').slice(1);
    expect(due).toContain('under way');
    expect(due).toMatch(/5 +under way +Bad traffic/);
    expect(later).toContain('2026-11-28 12:00:00');
  });

  it('webhooks event: a due attempt on a free-plan site is held, not under way, and names the plan change that runs it', () => {
    const out = renderEvent(event(), { now: '2026-11-28T10:00:01.000000', held: true });
    expect(out).not.toContain('under way');
    expect(out).toMatch(/next_attempt_at:\s+due since 2026-11-28 10:00:00 UTC: held while site site_abcdefgh12345678 is on the free plan \(vtr sites update site_abcdefgh12345678 --plan paid runs it\)/);
    expect(out).toContain('No attempts yet.');
  });

  it('webhooks events: a due attempt on a free-plan site shows "held (free plan)" in NEXT ATTEMPT', () => {
    const [row] = renderEvents([event()], false, '2026-11-28T10:00:01.000000', new Set(['site_abcdefgh12345678'])).split('\n').slice(1);
    expect(row).toMatch(/5 +held \(free plan\) +Bad traffic/);
  });
});
