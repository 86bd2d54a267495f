import { describe, expect, it } from "vitest";
import { sameStory, STORY_WINDOW_MS } from "./same-story.js";
import { headlineWords, type StoryFeatures } from "./story-features.js";

// Real headlines, sources and entities from the 2023-07-02 15:30 GDELT batch.
const T = Date.UTC(2023, 6, 2, 15, 30);

function features(
  id: string,
  title: string,
  source: string,
  entities: string[],
  places: string[],
  timeMs = T,
  persons: string[] = [],
): StoryFeatures {
  const nameWords = [...entities, ...places].flatMap((name) => name.split(/\W+/));
  const titleWords = headlineWords(title, source);
  const headlinePersons = persons.filter((p) => p.split(" ").some((w) => titleWords.includes(w)));
  return { id, source, language: "eng", timeMs, wordCount: 0, titleWords, entities, persons, headlinePersons, places, nameWords };
}

const hill = features(
  "a",
  "Baltimore block party shooting leaves 2 dead, 28 injured",
  "thehill.com",
  ["brooklyn homes"],
  ["baltimore"],
);
const wire = features(
  "b",
  "Baltimore block party shooting leaves 2 dead and 28 injured, including 3 critically hurt, police say",
  "triblive.com",
  ["brooklyn homes", "richard worley"],
  ["baltimore", "maryland"],
);
const npr = features(
  "c",
  "A mass shooting at a Baltimore block party left 2 people dead and 28 others wounded",
  "wyso.org",
  ["brooklyn homes"],
  ["baltimore", "maryland"],
);
const visit = features(
  "d",
  "Joe Biden to meet King and PM during July visit to UK",
  "ross-shirejournal.co.uk",
  ["joe biden", "rishi sunak"],
  ["london"],
);

describe("sameStory", () => {
  it("joins syndicated copies and reworded headlines of one event", () => {
    expect(sameStory(hill, wire)).toBe(true);
    expect(sameStory(wire, npr)).toBe(true);
  });

  it("is symmetric", () => {
    for (const [x, y] of [
      [hill, wire],
      [wire, npr],
      [hill, visit],
    ] as const) {
      expect(sameStory(x, y)).toBe(sameStory(y, x));
    }
  });

  it("keeps different events apart", () => {
    expect(sameStory(hill, visit)).toBe(false);
    const otherShooting = features(
      "e",
      "Shooting at party in Kansas City leaves 3 dead",
      "kctv5.com",
      ["kansas city police"],
      ["kansas city"],
    );
    expect(sameStory(hill, otherShooting)).toBe(false);
  });

  it("joins a reworded headline that names the same place as a name of the other report", () => {
    // KOCO's report carries no extracted names; "Baltimore" is a name in KHOU's.
    const koco = features("g", "2 dead among as many as 30 shot in south Baltimore mass shooting", "koco.com", [], []);
    const khou = features(
      "h",
      "Baltimore mass shooting: 2 dead, 28 hurt at Brooklyn Homes party",
      "khou.com",
      ["brandon scott", "baltimore police department"],
      [],
    );
    expect(sameStory(koco, khou)).toBe(true);
    // The same words without a name in either headline are not enough.
    const unnamed = features(
      "i",
      "Police: 2 dead after mass shooting at a July Fourth party overnight in a park, as many as 30 hurt",
      "wsj.com",
      [],
      [],
    );
    expect(sameStory(koco, unnamed)).toBe(false);
  });

  it("joins reactions to one event through the people both name, not through an outlet's habits", () => {
    const cast = ["ajit pawar", "sharad pawar", "praful patel", "sunil tatkare", "eknath shinde"];
    const split = features(
      "j",
      "MVA ravaged by 3rd 'surgical strike' in 3 years, after Shiv Sena, NCP splits",
      "prokerala.com",
      [...cast, "maha vikas aghadi", "kishore tiwari", "sachin sawant"],
      ["mumbai"],
      T,
      [...cast, "kishore tiwari", "sachin sawant"],
    );
    const washingMachine = features(
      "k",
      "BJP's washing machine has been switched on in Maharashtra, says Congress as ally NCP undergoes a split",
      "thehindu.com",
      [...cast, "jairam ramesh", "mallikarjun kharge", "lok sabha", "devendra fadnavis", "chagan bhujbal", "nana patole"],
      [],
      T,
      [...cast, "jairam ramesh", "mallikarjun kharge", "devendra fadnavis", "chagan bhujbal", "nana patole"],
    );
    expect(sameStory(split, washingMachine)).toBe(true);
    // One outlet's two pieces with the same cast are not joined by it.
    expect(sameStory(split, { ...washingMachine, source: "prokerala.com" })).toBe(false);
  });

  it("never joins articles more than 72 hours apart", () => {
    const later = { ...wire, id: "f", timeMs: T + STORY_WINDOW_MS + 1 };
    expect(sameStory(hill, later)).toBe(false);
    expect(sameStory(hill, { ...later, timeMs: T + STORY_WINDOW_MS })).toBe(true);
  });
});
