import { SIGNAL_GCAM_VARIABLES, type SignalInput } from "../../domain/vocabularies/signals-v1.js";
import { offsetListNames, plainListItems } from "./gkg-fields.js";

// What signals-v1 is computed from, read out of a GKG record: how many times
// each theme is mentioned (V2EnhancedThemes lists every mention with its
// offset; V1Themes, the fallback, lists each theme once) and the GCAM
// variables some signal reads (V2GCAM `wc:N,c1.1:N,...,v10.1:X`).

/** The record's theme mentions: V2EnhancedThemes' names (one per mention), or V1Themes' items when V2 is empty. */
export function themeMentions(v2Themes: string, v1Themes: string): string[] {
  const names = offsetListNames(v2Themes);
  return names.length > 0 ? names : plainListItems(v1Themes);
}

export function signalInput(mentions: readonly string[], gcam: string, wordCount: number | null): SignalInput {
  // Counted as written, then folded to upper case once per distinct theme (a theme is mentioned several times).
  const written = new Map<string, number>();
  for (const theme of mentions) written.set(theme, (written.get(theme) ?? 0) + 1);
  const themes = new Map<string, number>();
  for (const [theme, count] of written) {
    const code = theme.toUpperCase();
    themes.set(code, (themes.get(code) ?? 0) + count);
  }
  return { themes, gcam: gcamValues(gcam), wordCount };
}

/**
 * The GCAM variables some signal reads, as one pattern (`,c4.16:3`): the field holds thousands of entries, some
 * twenty of these, and naming them exactly skips the rest without building a string for each.
 */
const ENTRY = new RegExp(
  `,(${[...SIGNAL_GCAM_VARIABLES]
    .filter((v) => /^c\d+\.\d+$/.test(v))
    .map((v) => v.replace(".", "\\."))
    .join("|")}):([0-9.]+)`,
  "g",
);
const WORD_COUNT = /^wc:(\d+)/;

function gcamValues(field: string): Map<string, number> {
  const values = new Map<string, number>();
  const wc = WORD_COUNT.exec(field);
  if (wc) values.set("wc", Number(wc[1]));
  for (const m of field.matchAll(ENTRY)) {
    const value = Number(m[2]);
    if (Number.isFinite(value)) values.set(m[1] as string, value);
  }
  return values;
}
