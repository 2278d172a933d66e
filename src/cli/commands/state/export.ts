import type { CliContext } from '../../context.js';
import { printJson } from '../../output.js';
import { writeStateFile } from './file.js';

interface StateDoc {
  tables: Record<string, unknown[]>;
}

export async function run(o: { args: string[] }, ctx: CliContext): Promise<void> {
  const file = o.args[0];
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
  else ctx.info(`Exported to ${file}: ${tables.sites ?? 0} site(s), ${tables.sessions ?? 0} session(s), ${tables.checks ?? 0} check(s), ${tables.webhooks ?? 0} webhook(s).`);
}
