import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createStore } from '../../src/store/index.js';
import { storageFaultKind } from '../../src/store/storage-faults.js';
import { VtrError } from '../../src/domain/errors.js';
import { tempDir } from '../helpers/vtr-process.js';

describe('storage faults', () => {
  it('storageFaultKind: SQLite codes of a full disk, of a database that cannot be written and of a damaged one', () => {
    const e = (code: string) => Object.assign(new Error('x'), { code });
    expect(storageFaultKind(e('SQLITE_FULL'))).toBe('full');
    expect(storageFaultKind(e('SQLITE_IOERR_WRITE'))).toBe('full');
    for (const code of ['SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED', 'SQLITE_READONLY_RECOVERY', 'SQLITE_CANTOPEN', 'SQLITE_IOERR_SHMOPEN']) expect(storageFaultKind(e(code))).toBe('read_only');
    for (const code of ['SQLITE_CORRUPT', 'SQLITE_CORRUPT_INDEX', 'SQLITE_NOTADB']) expect(storageFaultKind(e(code))).toBe('corrupt');
    for (const code of ['SQLITE_BUSY', 'SQLITE_CONSTRAINT_UNIQUE', 'ENOENT']) expect(storageFaultKind(e(code))).toBeNull();
    expect(storageFaultKind(new Error('x'))).toBeNull();
  });

  it('store: a write past max_page_count throws insufficient_storage, rolls back whole, and a later commit clears the fault', () => {
    const path = join(tempDir(), 'vtr.db');
    const store = createStore({ path });
    try {
      const seen: unknown[] = [];
      store.faults.listen((f) => seen.push(f?.kind ?? null));
      store.db.pragma(`max_page_count = ${store.db.pragma('page_count', { simple: true })}`);
      const big = 'x'.repeat(3000);
      let error: unknown = null;
      try {
        store.tx(() => {
          for (let i = 0; i < 100; i++) store.meta.set(`k${i}`, big);
        });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(VtrError);
      expect(error).toMatchObject({ code: 'insufficient_storage', status: 507, details: { db: path } });
      expect(store.meta.get('k0')).toBeNull(); // nothing of the transaction
      expect(store.faults.current()).toMatchObject({ kind: 'full', file: path });
      store.db.pragma('max_page_count = 1073741823');
      store.tx(() => store.meta.set('k0', 'v'));
      expect(store.faults.current()).toBeNull();
      expect(seen).toEqual(['full', null]);
    } finally {
      store.close();
    }
  });

  it('store: a single write outside a transaction, locked out by another process, throws database_busy (not a fault)', () => {
    const path = join(tempDir(), 'vtr.db');
    const store = createStore({ path });
    const other = new Database(path);
    try {
      store.db.pragma('busy_timeout = 50');
      other.exec('BEGIN IMMEDIATE');
      let error: unknown = null;
      try {
        store.meta.set('k', 'v');
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(VtrError);
      expect(error).toMatchObject({ code: 'database_busy', status: 503, message: expect.stringMatching(/locked by another process.*try again/) });
      expect(store.faults.current()).toBeNull();
      other.exec('ROLLBACK');
      store.meta.set('k', 'v');
      expect(store.meta.get('k')).toBe('v');
    } finally {
      other.close();
      store.close();
    }
  });

  it('store: journal_size_limit bounds the WAL at rest to 32 MiB', () => {
    const store = createStore({ path: join(tempDir(), 'vtr.db') });
    try {
      expect(store.db.pragma('journal_size_limit', { simple: true })).toBe(32 * 1024 * 1024);
      expect(store.db.pragma('synchronous', { simple: true })).toBe(1);
    } finally {
      store.close();
    }
    const full = createStore({ path: join(tempDir(), 'vtr.db'), sync: 'full' });
    expect(full.db.pragma('synchronous', { simple: true })).toBe(2);
    full.close();
  });
});
