import type { CliContext } from '../../context.js';
import { openApiDocument } from '../../../api/document.js';
import { checkBaseUrl } from '../../credentials.js';

export async function run(_o: unknown, ctx: CliContext): Promise<void> {
  // The server URL is the one the CLI is pointed at (--base-url / VTR_BASE_URL), refused as every
  // other command refuses it rather than written into `servers` as it is.
  checkBaseUrl(ctx.config);
  const doc = openApiDocument({ serverUrl: ctx.config.baseUrl.replace(/\/+$/, '') });
  ctx.io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
}
