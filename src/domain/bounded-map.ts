// The bounded maps behind vtr's caches and memos: a Map keeps insertion order, so its first key is
// the oldest entry (or the least recently used, where a hit moves its entry to the end).

/** Adds `key` (not in `map`), first dropping the oldest entry when `map` already holds `max`. */
export function addBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
