// What a cursor page takes (spec section 8: "up to 2 for the first page, up to
// 3 for each later page, in place of the base price"). Our rule, served in
// /docs/completeness.md:
//   1  the page itself (a keyset seek in each monthly index)
//  +1  facets were counted over the whole match set
//  +1  a later page that resumed inside the timestamp group the previous page
//      stopped in (a seek among tied articles, and the 5,000-per-timestamp count)
// The first page can therefore take 1 or 2, a later page 1 to 3.

export function cursorPageCredits(page: { later: boolean; facets: boolean; resumedInTieGroup: boolean }): number {
  return 1 + (page.facets ? 1 : 0) + (page.later && page.resumedInTieGroup ? 1 : 0);
}
