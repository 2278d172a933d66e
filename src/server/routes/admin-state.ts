// State export/import/reset: GET/PUT /_vtr/api/state, POST /_vtr/api/state/reset (api/management/state.ts).
import type { Hono } from 'hono';
import { exportStateRoute, importStateRoute, resetStateRoute } from '../../api/management/state.js';
import type { AppDeps } from '../deps.js';
import { readJson } from '../http.js';
import { mount } from '../mount.js';

/** An import carries the whole database; the public 1 MiB limit would refuse any real one. */
export const MAX_STATE_BYTES = 256 * 1024 * 1024;

export function adminStateRoutes(app: Hono, deps: AppDeps): void {
  const state = deps.state;
  if (!state) return;
  mount(app, [
    [exportStateRoute, (c) => c.json(state.export())],
    // The import checks the document itself, naming what is wrong (its version, tables, columns).
    [importStateRoute, async (c) => {
      const { counts, created, clockBehindMs } = await state.import(await readJson(c, MAX_STATE_BYTES));
      return c.json({ imported: true, tables: counts, default_site_created: created ? created.site.site_id : null, clock_behind_ms: clockBehindMs });
    }],
    [resetStateRoute, async (c) => {
      // Requests still queued for the log would land after the reset otherwise.
      await deps.requestLog?.settle();
      const { site, token } = await state.reset();
      return c.json({
        reset: true,
        site: { site_id: site.site_id, name: site.name, site_key: site.site_key, secret_key: site.secret_key },
        access_token: token.token,
      });
    }],
  ]);
}
