import type { CliContext } from '../../context.js';
import { openApiDocument } from '../../../api/document.js';
import { checkBaseUrl } from '../../credentials.js';
import { UsageError } from '../../errors.js';
import { originOf } from '../../../client/api-client.js';

export async function run(_o: unknown, ctx: CliContext): Promise<void> {
  // The server URL is the one the CLI is pointed at (--base-url / VTR_BASE_URL), refused as every
  // other command refuses it rather than written into `servers` as it is.
  checkBaseUrl(ctx.config);
  const serverUrl = ctx.config.baseUrl.replace(/\/+$/, '');
  // Clients generated from the document send every public request under its server: one without
  // the version segment would reach none of the public API's routes.
  if (!/\/api\/v1$/.test(serverUrl)) {
    throw new UsageError(`${ctx.config.baseUrlFrom}: "${ctx.config.baseUrl}" is not the public API base; it must end in /api/v1 (e.g. ${originOf(ctx.config.baseUrl)}/api/v1)`);
  }
  const doc = openApiDocument({ serverUrl });
  ctx.io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
}
