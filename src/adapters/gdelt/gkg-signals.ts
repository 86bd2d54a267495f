import { SIGNAL_GCAM_VARIABLES, type SignalInput } from "../../domain/vocabularies/signals-v1.js";
import { offsetListNames, plainListItems } from "./gkg-fields.js";

// What signals-v1 is computed from, read out of a GKG record: how many times
// each theme is mentioned (V2EnhancedThemes lists every mention with its
// offset; V1Themes, the fallback, lists each theme once) and the GCAM
// variables some signal reads (V2GCAM `wc:N,c1.1:N,...,v10.1:X`).

export function signalInput(v2Themes: string, v1Themes: string, gcam: string, wordCount: number | null): SignalInput {
  const names = offsetListNames(v2Themes);
  const mentions = names.length > 0 ? names : plainListItems(v1Themes);
  const themes = new Map<string, number>();
  for (const theme of mentions) {
    const code = theme.toUpperCase();
    themes.set(code, (themes.get(code) ?? 0) + 1);
  }
  return { themes, gcam: gcamValues(gcam), wordCount };
}

function gcamValues(field: string): Map<string, number> {
  const values = new Map<string, number>();
  if (field === "") return values;
  for (const entry of field.split(",")) {
    const colon = entry.indexOf(":");
    if (colon <= 0) continue;
    const variable = entry.slice(0, colon).trim();
    if (!SIGNAL_GCAM_VARIABLES.has(variable)) continue;
    const value = Number(entry.slice(colon + 1));
    if (Number.isFinite(value) && value >= 0) values.set(variable, value);
  }
  return values;
}
