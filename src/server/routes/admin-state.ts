// State export/import/reset: GET/PUT /_vtr/api/state, POST /_vtr/api/state/reset (api/management/state.ts).
import type { Hono } from 'hono';
import { exportStateRoute, importStateRoute, resetStateRoute } from '../../api/management/state.js';
import { STATE_TABLES_HEADER } from '../../domain/state-summary.js';
import type { AppDeps } from '../deps.js';
import { readBodyStream } from '../body-stream.js';
import { mount } from '../mount.js';

/**
 * An import carries the whole database, read as it arrives (its memory does not grow with it): the
 * limit only stops a runaway client. 4 GiB is several times a 200,000-session export.
 */
export const MAX_STATE_BYTES = 4 * 1024 ** 3;
const TOO_LARGE = 'the body is larger than 4 GiB, the most a state import takes';

export function adminStateRoutes(app: Hono, deps: AppDeps): void {
  const state = deps.state;
  if (!state) return;
  mount(app, [
    [exportStateRoute, () => {
      const out = state.exportBytes();
      const chunks = out.chunks();
      // Pulled as the socket drains; the length lets a client see a cut-off answer (and keeps the
      // request log from reading the document to record it).
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel() {
          chunks.return(undefined);
        },
      });
      return new Response(body, {
        headers: { 'content-type': 'application/json', 'content-length': String(out.byteLength), [STATE_TABLES_HEADER]: JSON.stringify(out.counts) },
      });
    }],
    // The import checks the document itself, naming what is wrong (its version, tables, columns),
    // as it arrives; other requests go on meanwhile against the state as it was, until the import
    // replaces it in one transaction (store/state-staging.ts).
    [importStateRoute, async (c) => {
      const { counts, created, clockBehindMs } = await state.importStream(readBodyStream(c, MAX_STATE_BYTES, TOO_LARGE));
      return c.json({ imported: true, tables: counts, default_site_created: created ? created.site.site_id : null, clock_behind_ms: clockBehindMs });
    }],
    [resetStateRoute, async (c) => {
      const { site, token } = await state.reset();
      return c.json({
        reset: true,
        site: { site_id: site.site_id, name: site.name, site_key: site.site_key, secret_key: site.secret_key },
        access_token: token.token,
      });
    }],
  ]);
}
