// `npx vtr serve` runs vtr under npm (npm → sh → node). A SIGTERM to npm's process, the PID a script
// holds, ends npm without passing it on, and vtr would be left serving with no parent. Started by
// npm, vtr watches for that: when it is re-parented, it stops as it would on SIGTERM.

/** True when npm (`npx`, `npm exec`, `npm run`) started this process. */
export function startedByNpm(env: NodeJS.ProcessEnv): boolean {
  return typeof env.npm_command === 'string' && env.npm_command !== '';
}

/**
 * Calls `onGone` once when `parent` (read before a slow start-up, so an exit during it counts) is no
 * longer this process's parent; returns a function that stops watching.
 */
export function watchParent(parent: number, onGone: () => void, everyMs = 500): () => void {
  if (process.ppid !== parent) {
    queueMicrotask(onGone);
    return () => {};
  }
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
