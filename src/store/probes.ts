import type { Db } from './db.js';

export interface ProbeRecord {
  probe_id: string;
  site_id: string;
  session_id: string;
  ip: string | null;
  created_at: string;
  created_us: number;
}

export function createProbeStore(db: Db) {
  const insert = db.prepare('INSERT INTO probes (probe_id, site_id, session_id, ip, created_at, created_us) VALUES (@probe_id, @site_id, @session_id, @ip, @created_at, @created_us)');
  const get = db.prepare<[string], ProbeRecord>('SELECT * FROM probes WHERE probe_id = ?');
  return {
    insert: (p: ProbeRecord) => void insert.run(p),
    get: (id: string) => get.get(id) ?? null,
    all: () => db.prepare<[], ProbeRecord>('SELECT * FROM probes ORDER BY created_us').all(),
  };
}
export type ProbeStore = ReturnType<typeof createProbeStore>;
