// Who answers for a failed write on stdout. A command prints its output and ends: a failed write
// ends it (main.ts). `vtr serve` and `vtr exec` run on: once they run, they answer for it themselves
// (serve stops when its start line is lost; exec's command owns its stdout).
let owned = false;

export const stdoutOwned = (): boolean => owned;

export function ownStdout(): void {
  owned = true;
}

/** The reader went away (`| head`, a closed terminal): the output was not wanted any more. */
export const readerGone = (err: NodeJS.ErrnoException): boolean =>
  err.code === 'EPIPE' || err.code === 'EIO' || err.code === 'ERR_STREAM_DESTROYED';
