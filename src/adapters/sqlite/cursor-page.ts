import { TIE_GROUP_LIMIT, type CursorPosition } from "../../domain/browse-cursor.js";
import type { CursorOutcome } from "../../ports/article-search.js";
import type { RankFeatures } from "./bm25.js";
import type { PartitionHit } from "./partition-search.js";
import type { Keyset } from "./match-conditions.js";

// One cursor page of a newest-first browse, from candidates merged across
// partitions in (published_at desc, id desc) order. Keyset paging makes pages
// disjoint however many articles share a timestamp. The spec's limit of 5,000
// articles per timestamp: a timestamp serves its first 5,000 articles (by id,
// descending); the rest of it is skipped, the page goes on with older
// articles, and the page where the skip happens is marked (`tieGroupCut`).
// A skip right after a full page belongs to the next page, or, when no page
// follows, to this one: the last page of a browse never hides a skipped tail.

export type Candidate = PartitionHit & { month: string; features?: RankFeatures };

type Refetch = (keyset: Keyset, k: number) => Promise<Candidate[]>;

export async function cursorPage(
  first: readonly Candidate[],
  limit: number,
  after: CursorPosition | null,
  refetch: Refetch,
): Promise<{ page: Candidate[]; outcome: CursorOutcome }> {
  // One more than the page, to know whether another page exists.
  const wanted = limit + 1;
  const page: Array<Candidate & { served: number }> = [];
  let stamp = after?.published_at;
  let served = after?.served ?? 0;
  let tieGroupCut = false;
  let skippedAfterPage = false;
  let batch = first;
  for (;;) {
    let skipBefore: string | undefined;
    for (const candidate of batch) {
      if (candidate.published_at !== stamp) {
        stamp = candidate.published_at;
        served = 0;
      }
      if (served >= TIE_GROUP_LIMIT) {
        // Only a skip among the articles this page returns makes this page partial.
        if (page.length < limit) tieGroupCut = true;
        else skippedAfterPage = true;
        skipBefore = stamp;
        break;
      }
      served++;
      page.push({ ...candidate, served });
      if (page.length === wanted) break;
    }
    if (page.length === wanted || skipBefore === undefined) break;
    batch = await refetch({ before: skipBefore }, wanted - page.length);
  }
  const results = page.slice(0, limit);
  const last = results[results.length - 1];
  const next = page.length > limit && last ? { published_at: last.published_at, id: last.id, served: last.served } : null;
  if (skippedAfterPage && next === null) tieGroupCut = true;
  return {
    page: results.map(({ served: _served, ...candidate }) => candidate),
    outcome: { next, tieGroupCut },
  };
}
