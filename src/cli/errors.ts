// One place maps failures to exit codes: 0 ok, 1 operation failed, 2 usage, 3 check threshold.

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

export function exitCodeFor(err: unknown): number {
  if (err && typeof err === 'object' && 'exitCode' in err && typeof err.exitCode === 'number') return err.exitCode;
  if (err && typeof err === 'object' && 'code' in err) {
    const code = (err as { code: unknown }).code;
    if (typeof code === 'string' && code.startsWith('commander.')) return 2;
  }
  return 1;
}
