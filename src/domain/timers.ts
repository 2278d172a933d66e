// The host's real timers and clocks. The library runs in a test suite's process, where the suite
// may fake timers for its own code (vi.useFakeTimers(), sinon), before or after
// vtr is loaded: the emulator's writes, deliveries and waits keep to real time whatever it does.
// Fake timers replace the globals (setTimeout, Date, performance); the `node:timers` and
// `node:perf_hooks` modules keep the real ones.
import * as timers from 'node:timers';
import { performance } from 'node:perf_hooks';

/** Date.now as it is when vtr loads, unless a suite has faked it already (a fake is not native code). */
const nativeNow = /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(Date.now)) ? Date.now : null;

export const realTimers = {
  setTimeout: timers.setTimeout,
  clearTimeout: timers.clearTimeout,
  setInterval: timers.setInterval,
  clearInterval: timers.clearInterval,
  setImmediate: timers.setImmediate,
  /** Real epoch milliseconds. */
  now: nativeNow ?? (() => Math.floor(performance.timeOrigin + performance.now())),
  /** Real monotonic milliseconds (`performance.now()`), for durations and sub-millisecond digits. */
  monotonic: performance.now.bind(performance),
};
