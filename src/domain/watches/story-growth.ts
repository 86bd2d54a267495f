import type { EventKind } from "./watch.js";

// Per-story event states inside a watch (spec 02, section 3, and section 6's
// steps): unseen -> reported at `minimum_outlets`; a reported story records
// growth when it crosses 5, 15, 40 or 100 outlets, or has 10 more than at its
// last event. The steps are geometric on purpose: 3 -> 5 is news, 5 -> 12 is not.

export const GROWTH_STEPS = [5, 15, 40, 100] as const;
export const GROWTH_INCREMENT = 10;

/** What a watch remembers of a story it reported. */
export interface StoryMemory {
  /** Outlets when it was first reported or at its last growth event: growth counts from here. */
  outlets: number;
}

export interface StorySighting {
  outlets: number;
}

export type StoryStep =
  | { kind: "none"; memory: StoryMemory | undefined }
  | { kind: EventKind; memory: StoryMemory; previous_outlets?: number; notify: boolean };

/** True when growing from `previous` to `current` outlets crosses a step or adds ten or more. */
export function isGrowth(previous: number, current: number): boolean {
  if (current - previous >= GROWTH_INCREMENT) return true;
  return GROWTH_STEPS.some((step) => previous < step && step <= current);
}

/**
 * One run's sighting of a story: the transition and whether it records an
 * event. With `story_growth` alone, a story's first report records nothing
 * but still sets where growth counts from.
 */
export function stepStory(
  memory: StoryMemory | undefined,
  seen: StorySighting,
  minimumOutlets: number,
  notifyOn: readonly EventKind[],
): StoryStep {
  if (memory === undefined) {
    if (seen.outlets < minimumOutlets) return { kind: "none", memory: undefined };
    return { kind: "new_story", memory: { outlets: seen.outlets }, notify: notifyOn.includes("new_story") };
  }
  if (!isGrowth(memory.outlets, seen.outlets)) return { kind: "none", memory };
  return {
    kind: "story_growth",
    memory: { outlets: seen.outlets },
    previous_outlets: memory.outlets,
    notify: notifyOn.includes("story_growth"),
  };
}

/**
 * An event's id (spec 02, section 6, rule 4): the stamp the recording run was
 * due, the kind, the story and, for growth, the outlet count. Ids sort in
 * recorded order, and a repeated run names the same events.
 */
export function eventId(recordedAt: string, kind: EventKind, storyId: string, outlets: number): string {
  return kind === "new_story" ? `${recordedAt}-new_story-${storyId}` : `${recordedAt}-story_growth-${storyId}-${outlets}`;
}
