import type { Db } from './db.js';

export function createMetaStore(db: Db) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
  const set = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  return {
    get: (key: string): string | null => get.get(key)?.value ?? null,
    set: (key: string, value: string) => void set.run(key, value),
  };
}
export type MetaStore = ReturnType<typeof createMetaStore>;
