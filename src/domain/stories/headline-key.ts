import { headlineWords } from "./story-features.js";

/**
 * A headline as stories compare it: its content words, without the outlet's
 * name. Members sharing it told the story the same way; the most shared one
 * chooses the story's representative. Null without a title.
 */
export function headlineKey(title: string | null, source: string | null): string | null {
  return title ? headlineWords(title, source).join(" ") : null;
}
