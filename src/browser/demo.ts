// The demo sign-up page's script: shows what the agent did and sends a "conversion" event.
export {};

const byId = (id: string) => document.getElementById(id)!;

document.querySelectorAll('.emulator-origin').forEach((e) => { e.textContent = location.origin; });
const vtr = window.vtr;
if (vtr) {
  vtr.probe(10000).then((p) => {
    byId('probe-id').textContent = p || 'not recorded (see the browser console)';
    byId('session-id').textContent = vtr.sessionId() || '-';
  });
  byId('convert').addEventListener('click', () => {
    vtr.event('conversion', { value: 49 }).then((r) => {
      const answer = r as { success?: boolean; message?: string } | null;
      byId('event-status').textContent = answer && answer.success ? 'conversion recorded' : 'failed: ' + (answer && answer.message);
    });
  });
}
