// Heavy dependencies (phone metadata, country names, email lists, the user-agent parser) load on
// their first use, not when vtr is imported: a test suite starting an emulator per file pays for
// them only when its tests use them.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** A CommonJS package (or one with a `require` export), loaded on the first call. */
export function lazy<T>(id: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= load(id) as T);
}
