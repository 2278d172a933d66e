import { stat } from 'node:fs/promises';
import type { CliContext } from '../../context.js';
import { OperationError } from '../../errors.js';
import { printJson } from '../../output.js';
import { fileToWrite } from '../../file-paths.js';
import { writeStateFile } from './file.js';
import { stateSummary } from '../../../domain/state-summary.js';

interface StateDoc {
  tables: Record<string, unknown[]>;
}

export async function run(o: { args: string[]; yes?: boolean }, ctx: CliContext): Promise<void> {
  const file = o.args[0];
  // Checked before the state is fetched: a bad path is a usage error, as --export-on-exit's is.
  if (file !== '-') fileToWrite(null, file);
  // On a terminal, an existing file is not replaced unasked; a script overwrites it, as `curl -o` does.
  const exists = file !== '-' && (await stat(file).then((s) => s.isFile(), () => false));
  if (exists && !o.yes && ctx.interactive && !(await ctx.prompter.confirm(`Overwrite ${file}?`))) throw new OperationError(`not exported; ${file} is as it was`);
  const client = await ctx.client();
  const doc = await client.admin<StateDoc>('GET', '/state');
  const text = JSON.stringify(doc, null, 2);
  if (file === '-') {
    ctx.io.stdout.write(`${text}\n`);
    return;
  }
  await writeStateFile(file, text);
  const tables = Object.fromEntries(Object.entries(doc.tables).map(([name, rows]) => [name, rows.length]));
  if (ctx.config.json) printJson(ctx, { file, tables });
  else ctx.info(`Exported to ${file}: ${stateSummary(tables)}.`);
}
