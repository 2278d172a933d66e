// `vtr` entry point. `--version` answers before anything else loads (start-up time matters).
import { VERSION } from '../version.js';

async function main(argv: string[]): Promise<void> {
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  // `vtr ... | head`: a reader that goes away ends the output quietly, not with an EPIPE stack trace.
  // `vtr serve` keeps serving instead: only its log is lost (a script that stopped reading it must
  // not take the emulator down, nor see it exit 0 with its database left open).
  const serving = args.includes('serve') || args.includes('exec');
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
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
