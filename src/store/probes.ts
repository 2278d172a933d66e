import type { Db } from './db.js';
import type { ReadCaches } from './read-cache.js';

export interface ProbeRecord {
  probe_id: string;
  site_id: string;
  session_id: string;
  ip: string | null;
  created_at: string;
  created_us: number;
}

const PROBE_CACHE_ENTRIES = 4096;

export function createProbeStore(db: Db, caches: ReadCaches) {
  const insert = db.prepare('INSERT INTO probes (probe_id, site_id, session_id, ip, created_at, created_us) VALUES (@probe_id, @site_id, @session_id, @ip, @created_at, @created_us)');
  const get = db.prepare<[string], ProbeRecord>('SELECT * FROM probes WHERE probe_id = ?');
  // A visitor check reads its probe; probes are never updated, and are deleted only with their
  // site or by a state import (both empty every cache), so an entry never goes stale.
  const cache = caches.txCache<ProbeRecord>(PROBE_CACHE_ENTRIES);
  return {
    insert: (p: ProbeRecord) => {
      cache.delete(p.probe_id);
      insert.run(p);
    },
    get: (id: string): ProbeRecord | null => cache.get(id, () => Object.freeze(get.get(id)) ?? null), // frozen: shared
    all: () => db.prepare<[], ProbeRecord>('SELECT * FROM probes ORDER BY created_us').all(),
  };
}
export type ProbeStore = ReturnType<typeof createProbeStore>;
