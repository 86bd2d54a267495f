import { headlineWords } from "../../domain/stories/story-features.js";
import type { StoryMember } from "../../ports/story-index.js";

// Which member stands for a story in /stories and /stories/{id}: its title,
// url and published_at are the story's.

/** The member whose headline most members share (ties: the earliest), so the story reads as most outlets told it. */
export function representativeOf(members: readonly StoryMember[]): StoryMember {
  // Each headline normalised once: a story can have thousands of members.
  const keys = new Map<StoryMember, string>();
  const counts = new Map<string, number>();
  for (const m of members) {
    if (!m.title) continue;
    const key = headlineWords(m.title, m.source).join(" ");
    keys.set(m, key);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let best: StoryMember | undefined;
  let bestCount = 0;
  for (const m of [...members].sort((a, b) =>
    a.published_at < b.published_at ? -1 : a.published_at > b.published_at ? 1 : a.id < b.id ? -1 : 1,
  )) {
    const key = keys.get(m);
    const count = key === undefined ? 0 : (counts.get(key) ?? 0);
    if (count > bestCount) {
      best = m;
      bestCount = count;
    }
  }
  return best ?? (members[0] as StoryMember);
}
