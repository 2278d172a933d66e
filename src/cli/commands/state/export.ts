import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import type { CliContext } from '../../context.js';
import { ConnectionError } from '../../../client/api-client.js';
import { OperationError } from '../../errors.js';
import { output } from '../../output.js';
import { fileToWrite } from '../../file-paths.js';
import { writeStateFile } from './file.js';
import { STATE_TABLES_HEADER, stateSummary } from '../../../domain/state-summary.js';

export async function run(o: { args: string[]; yes?: boolean }, ctx: CliContext): Promise<void> {
  const file = o.args[0];
  // Checked before the state is fetched: a bad path is a usage error, as --export-on-exit's is.
  if (file !== '-') fileToWrite(null, file);
  // On a terminal, an existing file is not replaced unasked; a script overwrites it, as `curl -o` does.
  const exists = file !== '-' && (await stat(file).then((s) => s.isFile(), () => false));
  if (exists && !o.yes && ctx.interactive && !(await ctx.prompter.confirm(`Overwrite ${file}?`))) throw new OperationError(`not exported; ${file} is as it was`);
  const client = await ctx.client();
  // An export may be gigabytes: written as it comes, never held whole (nor parsed) here.
  const answer = await client.download('/state');
  const cut = (err: unknown, what: string): never => {
    if (err instanceof ConnectionError && err.cutOff) throw new OperationError(`the emulator at ${client.origin} closed the connection before the whole export came; ${what}`);
    throw err;
  };
  if (file === '-') {
    const out = ctx.io.stdout;
    try {
      for await (const chunk of answer.body) if (!out.write(chunk)) await once(out, 'drain');
    } catch (err) {
      cut(err, 'what stdout got is cut short');
    }
    return;
  }
  await writeStateFile(file, answer.body).catch((err: unknown) => cut(err, exists ? `not exported, ${file} is as it was` : 'not exported'));
  // Rows per table as the emulator counted them; an emulator from before that header gives none.
  const counted = answer.header(STATE_TABLES_HEADER);
  const tables = counted === null ? null : (JSON.parse(counted) as Record<string, number>);
  // The result, on stdout as `state import`'s is (the file holds the export itself).
  output(ctx, { file, tables }, () => (tables ? `Exported to ${file}: ${stateSummary(tables)}.` : `Exported to ${file}.`));
}
