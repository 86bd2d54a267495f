// Merges lists that are each already sorted by `compare` into the first `take`
// items of their union, in order: a k-way merge, cheaper than sorting the
// concatenation when each monthly index returns thousands of candidates.

export function mergeSorted<T>(lists: ReadonlyArray<readonly T[]>, compare: (a: T, b: T) => number, take: number): T[] {
  const heads = lists.filter((l) => l.length > 0).map((list) => ({ list, at: 0 }));
  const out: T[] = [];
  while (out.length < take && heads.length > 0) {
    let best = 0;
    for (let i = 1; i < heads.length; i++) {
      const h = heads[i] as (typeof heads)[number];
      const b = heads[best] as (typeof heads)[number];
      if (compare(h.list[h.at] as T, b.list[b.at] as T) < 0) best = i;
    }
    const head = heads[best] as (typeof heads)[number];
    out.push(head.list[head.at] as T);
    head.at++;
    if (head.at === head.list.length) heads.splice(best, 1);
  }
  return out;
}
