import { describe, expect, it } from "vitest";
import { sameStory, STORY_WINDOW_MS } from "./same-story.js";
import { headlineWords, type StoryFeatures } from "./story-features.js";

// Real headlines, sources and entities from the 2023-07-02 15:30 GDELT batch.
const T = Date.UTC(2023, 6, 2, 15, 30);

function features(id: string, title: string, source: string, entities: string[], places: string[], timeMs = T): StoryFeatures {
  return { id, source, timeMs, titleWords: headlineWords(title, source), entities, places };
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

  it("never joins articles more than 72 hours apart", () => {
    const later = { ...wire, id: "f", timeMs: T + STORY_WINDOW_MS + 1 };
    expect(sameStory(hill, later)).toBe(false);
    expect(sameStory(hill, { ...later, timeMs: T + STORY_WINDOW_MS })).toBe(true);
  });
});
