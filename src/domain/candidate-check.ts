import type { ArticleDetail } from "./article.js";
import { foldValue } from "./filter-fields.js";
import { matchedLocations } from "./geo-area.js";
import type { CandidateCheck } from "./search-query.js";

/**
 * The geographic and amount filters (spec section 4, rules 5 and 6) read from
 * an article's own record: a mentioned city inside the area, and one amount
 * whose number parses within every bound (describing `object` when given).
 * The same rule the index applies to its candidates, for candidates ranked
 * elsewhere (semantic and hybrid ranking).
 */
export function passesCandidateCheck(article: ArticleDetail, check: CandidateCheck): boolean {
  if (check.area !== undefined && matchedLocations(article.location_details, check.area).length === 0) return false;
  const amount = check.amount;
  if (amount === undefined) return true;
  const object = amount.object === undefined ? undefined : foldValue(amount.object);
  return article.amounts.some(
    (a) =>
      a.number !== null &&
      (amount.min === undefined || a.number >= amount.min) &&
      (amount.max === undefined || a.number <= amount.max) &&
      (object === undefined || foldValue(a.object) === object),
  );
}
