// `vtr` entry point. `--version` answers before anything else loads (start-up time matters).
import { VERSION } from '../version.js';

async function main(argv: string[]): Promise<void> {
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  // `vtr ... | head`: a reader that goes away ends the output quietly, not with an EPIPE stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
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
