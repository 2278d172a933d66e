// The host's timers and Date.now as they were when vtr was loaded. The library runs in a test
// suite's process, where the suite may fake timers for its own code (vi.useFakeTimers(), sinon):
// the emulator's writes, deliveries and waits keep to real time whatever the suite does after.

const host = globalThis;

export const realTimers = {
  setTimeout: host.setTimeout,
  clearTimeout: host.clearTimeout,
  setInterval: host.setInterval,
  clearInterval: host.clearInterval,
  setImmediate: host.setImmediate,
  /** Real epoch milliseconds. */
  now: Date.now,
  /** Real monotonic milliseconds (`performance.now()`), for durations and sub-millisecond digits. */
  monotonic: host.performance.now.bind(host.performance),
};
