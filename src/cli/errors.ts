// One place maps failures to exit codes: 0 ok, 1 operation failed, 2 usage, 3 check threshold, and
// 130 (the shell's code for Ctrl-C) when the user cancels a prompt.

export class UsageError extends Error {
  readonly exitCode = 2;
}

export class OperationError extends Error {
  readonly exitCode = 1;
}

/** `vtr check --fail-on` reached its threshold; the verdict was already printed. */
export class ThresholdReached extends Error {
  readonly exitCode = 3;
}

/** Ctrl-C (or Ctrl-D) at one of the prompt library's prompts. */
export const isPromptCancel = (err: unknown): boolean => err instanceof Error && err.name === 'ExitPromptError';

export function exitCodeFor(err: unknown): number {
  if (isPromptCancel(err)) return 130;
  // commander's own errors (unknown option, missing argument, bad choice...) carry exitCode 1: a usage error is 2.
  if (err && typeof err === 'object' && 'code' in err) {
    const code = (err as { code: unknown }).code;
    const exit = (err as { exitCode?: unknown }).exitCode;
    if (typeof code === 'string' && code.startsWith('commander.')) return exit === 0 ? 0 : 2;
  }
  if (err && typeof err === 'object' && 'exitCode' in err && typeof err.exitCode === 'number') return err.exitCode;
  return 1;
}
