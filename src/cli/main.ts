// `vtr` entry point. `--version` answers before anything else loads (start-up time matters).
import { VERSION } from '../version.js';

async function main(argv: string[]): Promise<void> {
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
    process.stdout.write(`${VERSION}\n`);
    return;
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
