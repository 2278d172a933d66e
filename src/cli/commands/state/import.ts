import type { CliContext } from '../../context.js';
import { ApiError } from '../../../client/api-client.js';
import { OperationError } from '../../errors.js';
import { output } from '../../output.js';
import { fileName, notJson, readStateFile } from './file.js';
import { behindNote } from '../../../domain/time.js';
import { stateSummary } from '../../../domain/state-summary.js';

interface ImportAnswer {
  imported: boolean;
  tables: Record<string, number>;
  default_site_created: string | null;
  clock_behind_ms?: number | null;
}

export async function run(o: { args: string[]; yes?: boolean }, ctx: CliContext): Promise<void> {
  const file = o.args[0];
  const text = await readStateFile(file, (line) => ctx.info(line));
  const client = await ctx.client();
  // Replacing everything is destructive: ask on a terminal. Scripts (no TTY) go ahead, as `import` says what it does.
  if (!o.yes && ctx.interactive && !(await ctx.prompter.confirm(`Replace all state of ${client.origin} with ${fileName(file)}?`))) {
    throw new OperationError('cancelled; nothing changed');
  }
  const answer = await client.admin<ImportAnswer>('PUT', '/state', { json: text instanceof Uint8Array ? text : text.chunks }).catch((err: unknown) => {
    // The API's body limit is not the emulator's: `serve --import` reads the file itself.
    if (err instanceof ApiError && err.code === 'payload_too_large') {
      const how = file === '-' ? 'save it to a file and load it at start-up with `vtr serve --import <file>`' : `load it at start-up instead: vtr serve --import ${file}`;
      throw new OperationError(`${fileName(file)} is too big to import into a running emulator (${err.message}); ${how}. Nothing changed.`);
    }
    if (err instanceof ApiError && err.code === 'invalid_json') throw notJson(file, err.message, text);
    // What is wrong with the file is said of the file, as `serve --import` says it.
    if (err instanceof ApiError && (err.code === 'invalid_request' || err.code === 'schema_too_new')) throw new OperationError(`${fileName(file)}: ${err.message}`);
    throw err;
  });
  output(ctx, answer, () => {
    const line = `Imported ${file === '-' ? 'from stdin' : file}: ${stateSummary(answer.tables)}.`;
    // The keys a script had belong to no site now: say where the new ones are.
    const created = answer.default_site_created;
    return created ? `${line} The file has no site: created the default site ${created} with new keys (see \`vtr keys show\`, \`vtr tokens list\`).` : line;
  });
  if (answer.clock_behind_ms) ctx.info(`vtr: ${behindNote(answer.clock_behind_ms)}`);
}
