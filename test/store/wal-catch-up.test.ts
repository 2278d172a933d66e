import { describe, expect, it } from 'vitest';
import { catchUp } from '../../src/store/wal-catch-up.js';

const limits = { restartPages: 1000, tailPages: 10, maxPasses: 3, forcePages: 8000 };
/** A pass that reports these WAL lengths in turn, and counts its calls. */
function passes(...logs: number[]) {
  const p = Object.assign(() => logs[Math.min(p.calls++, logs.length - 1)], { calls: 0 });
  return p;
}

describe('catchUp', () => {
  it('catchUp: a short WAL is left to the timer (one pass)', () => {
    const pass = passes(999);
    expect(catchUp(pass, limits, null)).toBeNull();
    expect(pass.calls).toBe(1);
  });

  it('catchUp: a long WAL is passed over again until what arrived during a pass is a tail', () => {
    const pass = passes(4000, 4500, 4560, 4565); // 500, 60, then 5 frames arrived
    expect(catchUp(pass, limits, null)).toBe(4565);
    expect(pass.calls).toBe(4);
  });

  it('catchUp: writes that keep outrunning the passes give up after maxPasses', () => {
    const pass = passes(4000, 4500, 5000, 5500, 6000);
    expect(catchUp(pass, limits, null)).toBeNull();
    expect(pass.calls).toBe(1 + limits.maxPasses);
  });

  it('catchUp: past forcePages, a WAL whose passes never reach a tail is handed over anyway', () => {
    const pass = passes(7500, 8000, 8500, 9000, 9500);
    expect(catchUp(pass, limits, null)).toBe(9000);
    expect(pass.calls).toBe(1 + limits.maxPasses);
  });

  it('catchUp: an idle WAL already caught up at that length is not caught up again', () => {
    const pass = passes(4565);
    expect(catchUp(pass, limits, 4565)).toBeNull();
    expect(pass.calls).toBe(1);
  });

  it('catchUp: a WAL that started over during a pass (shorter) is not taken for a caught-up one', () => {
    const pass = passes(4000, 3, 5); // started over, then 2 frames arrived
    expect(catchUp(pass, limits, null)).toBe(5);
  });
});
