import { describe, expect, it } from "vitest";
import { readArticles } from "../../../test/support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../../../test/support/test-server.js";
import { headlineOrSlugWords, headlineWords, slugWords, storyFeatures } from "./story-features.js";

// Real headlines from the 2023-07-02 15:30 GDELT batch.

describe("headlineWords", () => {
  it("drops the outlet's name at the end of a headline", () => {
    expect(headlineWords("America's Oldest Military Bases – 24/7 Wall St.", "247wallst.com")).toEqual([
      "america",
      "oldest",
      "military",
      "base",
    ]);
    expect(headlineWords("Heavy rain expected Sunday in the Sarnia area | Chatham Daily News", "chathamdailynews.ca")).toEqual([
      "heavy",
      "rain",
      "expected",
      "sunday",
      "sarnia",
      "area",
    ]);
    expect(headlineWords("France: 'Do not riot,' killed teen's grandmother says – DW – 07/02/2023", "dw.com")).toEqual([
      "france",
      "riot",
      "killed",
      "teen",
      "grandmother",
    ]);
  });

  it("keeps a trailing segment that is content, not an outlet", () => {
    expect(headlineWords("800,000 more Kenyans filed returns in 2023 – KRA", "the-star.co.ke")).toContain("kra");
    expect(
      headlineWords("Government is not seeking 'revenge' in its response to RTE payment debacle – TD", "hamhigh.co.uk"),
    ).toContain("td");
  });

  it("folds case and accents, keeps numbers and non-Latin words", () => {
    expect(headlineWords("Baltimore block party shooting leaves 2 dead, 28 injured", "thehill.com")).toEqual([
      "baltimore",
      "block",
      "party",
      "shooting",
      "leave",
      "2",
      "dead",
      "28",
      "injured",
    ]);
    expect(headlineWords("Press Trust of India: दिल्ली : लावारिस वाहन में मिले भैंस के सिर", "ptinews.com").length).toBeGreaterThan(5);
  });

  it("drops an outlet's name and sections at the start of a headline", () => {
    expect(
      headlineWords(
        "Welcome To IANS Live  - NATION - NCP 'bombed', but cool Sharad Pawar says he's 'most reliable'",
        "ianslive.in",
      ),
    ).toEqual(["ncp", "bombed", "cool", "sharad", "pawar", "reliable"]);
    expect(headlineWords("Press Trust of India: राहुल गांधी", "ptinews.com")).toEqual(["राहुल", "गांधी"]);
    expect(headlineWords("France: Riots continue over police shooting of teen Nahel", "12news.com")).toContain("france");
  });
});

describe("headlineOrSlugWords", () => {
  it("reads the URL's slug when the page title is not the headline", () => {
    const paywall = headlineOrSlugWords(
      "Subscribe to the Gold Coast Bulletin",
      "https://www.goldcoastbulletin.com.au/news/world/mass-shooting-in-us-city-of-baltimore-leaves-at-least-two-dead-28-wounded/news-story/64778f3286a5240552998c802a3f49e5&memtype=anonymous",
      "goldcoastbulletin.com.au",
    );
    expect(paywall).toEqual(expect.arrayContaining(["mass", "shooting", "baltimore", "dead", "wounded"]));
    const bareOutlet = headlineOrSlugWords(
      "The Stockton Record",
      "https://www.recordnet.com/story/news/2023/06/30/supermoons-meteor-showers-visible-in-north-state-skies-in-july/70373776007/",
      "recordnet.com",
    );
    expect(bareOutlet).toEqual(["supermoon", "meteor", "shower", "visible", "north", "state", "skie", "july"]);
  });

  it("keeps the headline when it shares words with the slug, or the slug is an id", () => {
    const title = "Baltimore block party shooting leaves 2 dead, 28 injured";
    expect(
      headlineOrSlugWords(
        title,
        "https://thehill.com/homenews/state-watch/4078021-baltimore-block-party-shooting-leaves-2-dead-28-injured/",
        "thehill.com",
      ),
    ).toEqual(headlineWords(title, "thehill.com"));
    expect(slugWords("https://bhasha.ptinews.com/news/state/509845.html")).toEqual([]);
    expect(slugWords("not a url")).toEqual([]);
  });
});

describe("storyFeatures", () => {
  it("names the persons a headline names, by any word of their name, and the article's language", async () => {
    const articles = await readArticles([SAMPLE_FILES.batch2023]);
    const byId = new Map(articles.map((a) => [a.id, a]));
    // AP: "Biden's upcoming European trip is meant to boost NATO against Russia as the war in Ukraine drags on".
    const ap = storyFeatures(byId.get("20230702153000-385") as (typeof articles)[number]);
    expect(ap.language).toBe("eng");
    expect(ap.headlinePersons.sort()).toEqual(["jill biden", "joe biden"]);
    expect(ap.persons).toContain("jens stoltenberg");
    expect(ap.headlinePersons).not.toContain("jens stoltenberg");
    // "Fourth of July holiday origins and traditions, Americana at its core": no person in the headline.
    expect(storyFeatures(byId.get("20230702153000-417") as (typeof articles)[number]).headlinePersons).toEqual([]);
  });
});
