// Saved views of a site: a name, a filter over Session fields, and whether matching sessions
// trigger the site's webhooks. A filter is parsed at creation/update; a bad one is refused with
// its position.
import type { Clock } from '../domain/clock.js';
import type { SavedView } from '../domain/webhooks.js';
import { FilterError, parseFilter } from '../domain/filter/index.js';
import { notFound, shownId, VtrError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { formatMicros } from '../domain/time.js';
import type { Store } from '../store/index.js';
import type { EventBus } from '../events/bus.js';

export interface ViewInput {
  name?: string;
  filter?: string;
  trigger_webhooks?: boolean;
}

/** Parses a filter; a syntax error becomes a 400 `invalid_filter` carrying `position`. */
export function checkFilter(filter: string): void {
  try {
    parseFilter(filter, { knownCountries: true, saved: true });
  } catch (err) {
    if (err instanceof FilterError) throw new VtrError('invalid_filter', err.message, { field: 'filter', position: err.position });
    throw err;
  }
}

/** Whether two filters select the same sessions as written (spacing and line breaks aside). */
function sameSelection(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(parseFilter(a)) === JSON.stringify(parseFilter(b));
  } catch {
    return false; // a stored filter that no longer parses selected nothing
  }
}

export function createViewService({ store, clock, bus }: { store: Store; clock: Clock; bus?: EventBus }) {
  const announce = (type: 'saved_view.created' | 'saved_view.updated' | 'saved_view.deleted', view: SavedView) => bus?.publish({ type, data: { ...view } });
  const siteExists = (siteId: string) => {
    if (!store.sites.get(siteId)) throw notFound(`site ${shownId(siteId)}`);
  };
  function get(id: string): SavedView {
    const v = store.views.get(id);
    if (!v) throw notFound(`saved view ${shownId(id)}`);
    return v;
  }
  return {
    get,
    list(siteId?: string): SavedView[] {
      if (!siteId) return store.views.list();
      siteExists(siteId);
      return [...store.views.forSite(siteId)];
    },
    create(siteId: string, input: ViewInput): SavedView {
      siteExists(siteId);
      if (input.name === undefined) throw new VtrError('invalid_request', 'name: required', { field: 'name' });
      if (input.filter === undefined) throw new VtrError('invalid_request', 'filter: required', { field: 'filter' });
      checkFilter(input.filter);
      const view: SavedView = {
        saved_view_id: newId.view(),
        site_id: siteId,
        name: input.name,
        filter: input.filter,
        trigger_webhooks: input.trigger_webhooks ?? false,
        created_at: formatMicros(clock.nowMicros()),
      };
      store.views.insert(view);
      announce('saved_view.created', view);
      return view;
    },
    update(id: string, input: ViewInput): SavedView {
      const view = get(id);
      if (input.filter !== undefined) checkFilter(input.filter);
      const next: SavedView = {
        ...view,
        name: input.name ?? view.name,
        filter: input.filter ?? view.filter,
        trigger_webhooks: input.trigger_webhooks ?? view.trigger_webhooks,
      };
      // Nothing changed ({} or the values it has): nothing to save or tell the stream's listeners.
      if (JSON.stringify(next) === JSON.stringify(view)) return view;
      store.tx(() => {
        store.views.update(next);
        // A changed filter is another selection: a session matching it has not matched it before,
        // whatever it matched under the old one (a new name or trigger_webhooks keeps the matches).
        if (!sameSelection(next.filter, view.filter)) store.views.matches.clear(id);
      });
      announce('saved_view.updated', next);
      return next;
    },
    delete(id: string): SavedView {
      const view = get(id);
      store.views.delete(id);
      announce('saved_view.deleted', view);
      return view;
    },
  };
}

export type ViewService = ReturnType<typeof createViewService>;
