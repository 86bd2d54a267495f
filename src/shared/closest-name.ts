import { distance } from "fastest-levenshtein";

/**
 * The valid name a mistyped one most likely meant: a name it abbreviates or
 * extends (`lang` → `language`) first, else the smallest edit distance, ties
 * broken by the longer shared prefix.
 */
export function closestName(given: string, valid: readonly string[]): string {
  const g = given.toLowerCase();
  let best = valid[0] ?? "";
  let bestRank = [Infinity, Infinity, 0];
  for (const name of valid) {
    const n = name.toLowerCase();
    const affix = n.startsWith(g) || g.startsWith(n) ? 0 : 1;
    const rank = [affix, distance(g, n), -sharedPrefix(g, n)];
    if (less(rank, bestRank)) {
      best = name;
      bestRank = rank;
    }
  }
  return best;
}

function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function less(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}
