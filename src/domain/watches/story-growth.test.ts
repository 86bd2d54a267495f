import { describe, expect, it } from "vitest";
import { isGrowth, stepStory, type StoryMemory } from "./story-growth.js";

describe("story growth steps", () => {
  it("records the spec's example exactly: 3 -> 5 -> 12 -> 15 -> 25 -> 40", () => {
    let memory: StoryMemory | undefined;
    const recorded: string[] = [];
    for (const outlets of [3, 5, 12, 15, 25, 40]) {
      const step = stepStory(memory, { outlets }, 2, ["new_story", "story_growth"]);
      memory = step.memory;
      if (step.kind !== "none")
        recorded.push(step.kind === "new_story" ? `new@${outlets}` : `${step.previous_outlets}->${outlets}`);
    }
    expect(recorded).toEqual(["new@3", "3->5", "5->15", "15->25", "25->40"]);
  });

  it("then every ten more, and 100 is a step of its own", () => {
    expect(isGrowth(40, 49)).toBe(false);
    expect(isGrowth(40, 50)).toBe(true);
    expect(isGrowth(95, 100)).toBe(true);
    expect(isGrowth(100, 109)).toBe(false);
  });

  it("reports a jump as one event carrying both counts", () => {
    const step = stepStory({ outlets: 3 }, { outlets: 45 }, 2, ["story_growth"]);
    expect(step).toMatchObject({ kind: "story_growth", previous_outlets: 3, memory: { outlets: 45 }, notify: true });
  });

  it("leaves a story below minimum_outlets unseen", () => {
    expect(stepStory(undefined, { outlets: 2 }, 3, ["new_story"])).toEqual({ kind: "none", memory: undefined });
  });

  it("with story_growth alone, the first sighting records nothing but counts growth from there", () => {
    const first = stepStory(undefined, { outlets: 4 }, 2, ["story_growth"]);
    expect(first).toMatchObject({ kind: "new_story", notify: false, memory: { outlets: 4 } });
    expect(stepStory(first.memory, { outlets: 5 }, 2, ["story_growth"])).toMatchObject({ kind: "story_growth", notify: true });
  });
});
