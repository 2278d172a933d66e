// The one poll-until of the tests: waits for a condition with a generous deadline and, when the
// deadline passes, fails with what it saw (never returns as if the condition held).

export type Truthy<T> = Exclude<T, null | undefined | false | 0 | ''>;

/** Polls `fn` until it is truthy and returns that value; throws with `describe()` after the timeout. */
export async function pollUntil<T>(fn: () => T | Promise<T>, timeoutMs = 20_000, describe?: () => string, intervalMs = 25): Promise<Truthy<T>> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as Truthy<T>;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting${describe ? `: ${describe()}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
