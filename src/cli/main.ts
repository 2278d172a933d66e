// `vtr` entry point. `--version` answers before anything else loads (start-up time matters).
import { versionLine } from './version-line.js';
import { readerGone, stdoutOwned } from './stdout-owner.js';

const VERSION_FLAGS = new Set(['--version', '-v']);

async function main(argv: string[]): Promise<void> {
  const args = argv.slice(2);
  // `vtr --version`, `vtr --json --version` (either order): the commonest forms, answered here.
  const rest = args.filter((a) => !VERSION_FLAGS.has(a));
  if (rest.length < args.length && (rest.length === 0 || (rest.length === 1 && rest[0] === '--json'))) {
    process.stdout.write(versionLine(rest.length === 1, !!process.stdout.isTTY));
    return;
  }
  // `vtr ... | head`: a reader that goes away ends the output quietly, not with an EPIPE stack trace;
  // so does a terminal that was closed (EIO).
  // A running `vtr serve` keeps serving instead: only its log is lost (a script that stopped reading
  // it must not take the emulator down, nor see it exit 0 with its database left open).
  // Any other write error (a full disk under `> out.json`): on stdout the data is incomplete, so
  // the command fails saying why; on stderr only the messages are lost, and the exit code still
  // tells how the command went. A running `vtr serve` or `vtr exec` answers for its stdout itself.
  let stderrLost = false;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      const gone = readerGone(err);
      if (stream === process.stderr && (stderrLost || !gone)) {
        stderrLost = true;
        return;
      }
      const serving = stdoutOwned();
      if (!gone) {
        if (serving) return;
        if (!stderrLost) process.stderr.write(`vtr: error: cannot write to stdout: ${err.message}\n`);
        process.exit(1);
      }
      if (serving) return;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
  }
  const { buildProgram } = await import('./program.js');
  const { exitCodeFor } = await import('./errors.js');
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    // commander already printed its message (help/version exit with code 0)
    const code = (err as { exitCode?: number }).exitCode;
    process.exitCode = code === 0 ? 0 : exitCodeFor(err);
  }
}

void main(process.argv);
