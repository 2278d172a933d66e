import type { SavedView } from '../domain/webhooks.js';
import type { Db } from './db.js';
import type { ReadCaches } from './read-cache.js';

type ViewRow = Omit<SavedView, 'trigger_webhooks'> & { trigger_webhooks: number };

const toView = (r: ViewRow): SavedView => ({ ...r, trigger_webhooks: r.trigger_webhooks === 1 });

export function createViewStore(db: Db, caches: ReadCaches) {
  const insert = db.prepare(
    'INSERT INTO saved_views (saved_view_id, site_id, name, filter, trigger_webhooks, created_at) VALUES (@saved_view_id, @site_id, @name, @filter, @trigger_webhooks, @created_at)',
  );
  const update = db.prepare('UPDATE saved_views SET name = @name, filter = @filter, trigger_webhooks = @trigger_webhooks WHERE saved_view_id = @saved_view_id');
  const byId = db.prepare<[string], ViewRow>('SELECT * FROM saved_views WHERE saved_view_id = ?');
  const bySite = db.prepare<[string], ViewRow>('SELECT * FROM saved_views WHERE site_id = ? ORDER BY created_at, saved_view_id');
  const all = db.prepare<[], ViewRow>('SELECT * FROM saved_views ORDER BY created_at, saved_view_id');
  const del = db.prepare('DELETE FROM saved_views WHERE saved_view_id = ?');
  const hasMatch = db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM view_matches WHERE saved_view_id = ? AND session_id = ?');
  const addMatch = db.prepare('INSERT OR IGNORE INTO view_matches (saved_view_id, session_id, matched_at) VALUES (?, ?, ?)');
  const clearMatches = db.prepare('DELETE FROM view_matches WHERE saved_view_id = ?');

  const row = (v: SavedView) => ({ ...v, trigger_webhooks: v.trigger_webhooks ? 1 : 0 });
  // Every session change checks its site's views (webhooks/trigger.ts): cached, frozen (shared).
  const siteCache = caches.cache<readonly SavedView[]>();
  return {
    insert: (v: SavedView) => caches.wrote(void insert.run(row(v))),
    update: (v: SavedView) => caches.wrote(void update.run(row(v))),
    get: (id: string): SavedView | null => {
      const r = byId.get(id);
      return r ? toView(r) : null;
    },
    forSite: (siteId: string): readonly SavedView[] =>
      siteCache.get(siteId, () => Object.freeze(bySite.all(siteId).map((r) => Object.freeze(toView(r)))))!,
    list: (): SavedView[] => all.all().map(toView),
    delete: (id: string) => caches.wrote(del.run(id).changes > 0),
    matches: {
      has: (viewId: string, sessionId: string) => hasMatch.get(viewId, sessionId) !== undefined,
      /** Records the first match; false when the session had matched the view before. */
      add: (viewId: string, sessionId: string, at: string) => addMatch.run(viewId, sessionId, at).changes > 0,
      /** Forgets every match of the view: each session's next match is a first one again. */
      clear: (viewId: string) => void clearMatches.run(viewId),
    },
  };
}
export type ViewStore = ReturnType<typeof createViewStore>;
