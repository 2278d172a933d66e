// "Did you mean" hints: for filter field names and vocabularies, and for the library's option names.

/** Closest candidate by edit distance, or one that contains / is contained in the input. */
export function suggest(input: string, candidates: readonly string[]): string | null {
  if (input.length > 64) return null; // not worth the quadratic distance on hostile input
  let best: string | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = distance(input, c);
    if (d < bestD) [best, bestD] = [c, d];
  }
  if (best && bestD <= Math.max(2, Math.floor(input.length / 4))) return best;
  if (input.length >= 3) return candidates.find((c) => c.includes(input) || input.includes(c)) ?? null;
  return null;
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}
