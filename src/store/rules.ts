import type { Rule } from '../domain/rules.js';
import type { Db } from './db.js';
import type { ReadCaches } from './read-cache.js';

/** A stored rule: a custom rule, or a site's settings for one smart rule. */
type Row = Omit<Rule, 'enabled'> & { enabled: number; seq: number | null };

// The table's columns start with site_id; answers keep the API's order, rule_id first. `seq` is the
// rule's place in the order of creation: internal, not a field of the API.
const toRule = ({ rule_id, site_id, seq: _seq, ...r }: Row): Rule => ({ rule_id, site_id, ...r, enabled: r.enabled === 1 });

export function createRuleStore(db: Db, caches: ReadCaches) {
  const upsert = db.prepare(
    `INSERT INTO rules (site_id, rule_id, type, name, filter, action, threshold, enabled, created_at, seq)
     VALUES (@site_id, @rule_id, @type, @name, @filter, @action, @threshold, @enabled, @created_at, (SELECT coalesce(max(seq), 0) + 1 FROM rules))
     ON CONFLICT (site_id, rule_id) DO UPDATE SET name = excluded.name, filter = excluded.filter,
       action = excluded.action, threshold = excluded.threshold, enabled = excluded.enabled`,
  );
  // In the order the rules were created, whatever the clock said then (migration 6).
  const forSite = db.prepare<[string], Row>('SELECT * FROM rules WHERE site_id = ? ORDER BY seq, rowid');
  const del = db.prepare('DELETE FROM rules WHERE site_id = ? AND rule_id = ?');
  // Every visitor check reads its site's rules: cached (read-cache.ts), frozen (shared).
  const siteCache = caches.cache<readonly Rule[]>();
  return {
    /** Inserts a rule, or replaces a site's settings for it. */
    save: (r: Rule) => caches.wrote(void upsert.run({ ...r, enabled: r.enabled ? 1 : 0 })),
    /** In the order they were created. */
    forSite: (siteId: string): readonly Rule[] => siteCache.get(siteId, () => Object.freeze(forSite.all(siteId).map((r) => Object.freeze(toRule(r)))))!,
    delete: (siteId: string, ruleId: string) => caches.wrote(del.run(siteId, ruleId).changes > 0),
  };
}
export type RuleStore = ReturnType<typeof createRuleStore>;
