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

/** The GCAM dictionaries some signal reads (`c4` of `c4.1`): the field holds thousands of entries, a few of these. */
const DICTIONARIES = [...new Set([...SIGNAL_GCAM_VARIABLES].flatMap((v) => /^c(\d+)\./.exec(v)?.[1] ?? []))];
const ENTRY = new RegExp(`,c(${DICTIONARIES.join("|")})\\.(\\d+):([0-9.]+)`, "g");
const WORD_COUNT = /^wc:(\d+)/;

function gcamValues(field: string): Map<string, number> {
  const values = new Map<string, number>();
  const wc = WORD_COUNT.exec(field);
  if (wc) values.set("wc", Number(wc[1]));
  for (const m of field.matchAll(ENTRY)) {
    const variable = `c${m[1]}.${m[2]}`;
    const value = Number(m[3]);
    if (SIGNAL_GCAM_VARIABLES.has(variable) && Number.isFinite(value)) values.set(variable, value);
  }
  return values;
}
