import { TIE_GROUP_LIMIT, type CursorPosition } from "../browse-cursor.js";

// What a cursor page takes (spec section 8: "up to 2 for the first page, up to
// 3 for each later page, in place of the base price"). Our rule, served in
// /docs/completeness.md:
//   1  the page itself (a seek after the cursor)
//  +1  facets were counted over the whole match set
//  +1  a later page that resumed inside the timestamp group the previous page
//      stopped in (a seek among tied articles, and the 5,000-per-timestamp count)
// The first page can therefore take 1 or 2, a later page 1 to 3.

export function cursorPageCredits(page: { later: boolean; facets: boolean; resumedInTieGroup: boolean }): number {
  return 1 + (page.facets ? 1 : 0) + (page.later && page.resumedInTieGroup ? 1 : 0);
}

/**
 * Whether a page resumed inside the timestamp group the cursor stopped in: its first article shares the cursor's
 * timestamp (browse-cursor.ts browseStamp), or the group went on past the cursor but had served its TIE_GROUP_LIMIT already (the page skipped the
 * rest of it, and says so with `tieGroupCut`).
 */
export function resumedInTieGroup(
  after: CursorPosition | null,
  page: { firstPublishedAt: string | undefined; tieGroupCut: boolean },
): boolean {
  if (after === null) return false;
  if (page.firstPublishedAt === after.published_at) return true;
  return page.tieGroupCut && after.served >= TIE_GROUP_LIMIT;
}
