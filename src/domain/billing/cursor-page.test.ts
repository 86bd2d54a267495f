import { describe, expect, it } from "vitest";
import { TIE_GROUP_LIMIT } from "../browse-cursor.js";
import { cursorPageCredits, resumedInTieGroup } from "./cursor-page.js";

describe("a cursor page's price", () => {
  it("is 1, plus 1 with facets, plus 1 on a later page resuming inside a timestamp group", () => {
    expect(cursorPageCredits({ later: false, facets: false, resumedInTieGroup: false })).toBe(1);
    expect(cursorPageCredits({ later: false, facets: true, resumedInTieGroup: false })).toBe(2);
    expect(cursorPageCredits({ later: true, facets: false, resumedInTieGroup: true })).toBe(2);
    expect(cursorPageCredits({ later: true, facets: true, resumedInTieGroup: true })).toBe(3);
  });
});

describe("resuming inside a timestamp group", () => {
  const after = { published_at: "20230702153000", id: "20230702153000-9", served: 10 };

  it("is never the first page", () => {
    expect(resumedInTieGroup(null, { firstPublishedAt: "20230702153000", tieGroupCut: false })).toBe(false);
  });

  it("is a page whose first article shares the cursor's timestamp", () => {
    expect(resumedInTieGroup(after, { firstPublishedAt: after.published_at, tieGroupCut: false })).toBe(true);
    expect(resumedInTieGroup(after, { firstPublishedAt: "20230702152959", tieGroupCut: false })).toBe(false);
    expect(resumedInTieGroup(after, { firstPublishedAt: undefined, tieGroupCut: false })).toBe(false);
  });

  it("is a page that skipped the rest of a group whose limit the cursor had reached", () => {
    const full = { ...after, served: TIE_GROUP_LIMIT };
    expect(resumedInTieGroup(full, { firstPublishedAt: "20230702152959", tieGroupCut: true })).toBe(true);
    expect(resumedInTieGroup(full, { firstPublishedAt: "20230702152959", tieGroupCut: false })).toBe(false);
    expect(resumedInTieGroup(after, { firstPublishedAt: "20230702152959", tieGroupCut: true })).toBe(false);
  });
});
