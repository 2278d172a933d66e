// The event page's disabled Retry button on a test clock: it says what moves the clock to the next
// automatic attempt, since under --clock frozen the retries never become "done" by waiting.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

let rx: Receiver;
const open: Harness[] = [];
beforeAll(async () => {
  rx = await startReceiver({ answer: () => 500 });
});
afterAll(() => rx.close());
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

async function retryingEventPage(clock: 'frozen' | 'manual' | 'system'): Promise<string> {
  const h = harness({ clock, retrySchedule: [3_600_000, 3_600_000, 3_600_000, 3_600_000, 3_600_000] });
  open.push(h);
  const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: rx.url })).body;
  const ev = (await h.admin('POST', `/webhooks/${hook.webhook_id}/trigger`, {})).body;
  // The first attempt runs at once (and fails): wait for it to be recorded.
  for (let i = 0; i < 100; i++) {
    if ((await h.admin('GET', `/webhook-events/${ev.webhook_event_id}`)).body.status === 'retrying') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const res = await h.request(`/_vtr/console/webhook-events/${ev.webhook_event_id}`, { headers: { accept: 'text/html' } });
  return /<span id="retry-reason"[^>]*>([\s\S]*?)<\/span>\n/.exec(await res.text())![1];
}

describe('console: the Retry button on a test clock', () => {
  it('webhook event page: under a frozen clock, the disabled Retry says the clock must move and by how much', async () => {
    const why = await retryingEventPage('frozen');
    expect(why).toContain('Automatic retries in progress');
    expect(why).toContain('<code>vtr clock advance 1h</code> runs it');
  });

  it('webhook event page: under a manual clock, it says the attempt runs then, or a clock move runs it now', async () => {
    const why = await retryingEventPage('manual');
    expect(why).toContain('<code>vtr clock advance 1h</code> runs it now');
  });

  it('webhook event page: under the system clock, no clock move is offered', async () => {
    expect(await retryingEventPage('system')).not.toContain('clock advance');
  });
});
