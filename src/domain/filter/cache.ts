// Stored filters (saved views, rules) parsed once per text: every session change evaluates the
// site's views, every check its rules.
import { parseFilter } from './parser.js';
import type { FilterNode } from './node.js';

/**
 * A bounded cache of parsed filters. A stored text that does not parse (written by an older vtr,
 * which took filters this one refuses) gives null: it matches nothing, and nothing fails over it.
 */
export function createFilterCache(max = 1000): (text: string) => FilterNode | null {
  const parsed = new Map<string, FilterNode | null>();
  return (text) => {
    let node = parsed.get(text);
    if (node === undefined) {
      try {
        node = parseFilter(text);
      } catch {
        node = null;
      }
      if (parsed.size >= max) parsed.clear();
      parsed.set(text, node);
    }
    return node;
  };
}
