import { foldValue } from "../../domain/filter-fields.js";

// Amounts as flat keyword terms, so an article is one Lucene document (nested
// amounts made each amount a document of its own: 4 to 5 per article, which
// bounded bulk ingest) and an amount filter stays exact: one amount must
// satisfy every bound and describe the object (spec: amount_min, amount_max).
//
// A key is `<length of the folded object>:<folded object>|<number>`, the
// number as 16 hex digits whose order is the numbers' order. The length makes
// the object's end unambiguous, so a range from `<object>|<min>` to
// `<object>|<max>` holds the keys of that object's amounts within the bounds
// and nothing else. Without `amount_object`, bounds read `amounts.number`: a
// range over a many-valued number field matches when one value lies within
// both bounds, exact as it is.

/** 16 hex digits ordered as the doubles they encode (sign bit flipped for positives, every bit for negatives). */
export function sortableNumber(value: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value === 0 ? 0 : value);
  let bits = view.getBigUint64(0);
  bits = bits >> 63n === 1n ? ~bits & 0xffffffffffffffffn : bits | 0x8000000000000000n;
  return bits.toString(16).padStart(16, "0");
}

function objectPrefix(object: string): string {
  const folded = foldValue(object);
  return `${folded.length}:${folded}|`;
}

/** The keys of an article's amounts; an amount whose number is null satisfies no bound and has none. */
export function amountKeys(amounts: ReadonlyArray<{ number: number | null; object: string }>): string[] {
  const keys = new Set<string>();
  for (const a of amounts)
    if (a.number !== null && Number.isFinite(a.number)) keys.add(objectPrefix(a.object) + sortableNumber(a.number));
  return [...keys];
}

/** The key range of `object`'s amounts within the bounds (either may be absent). */
export function amountKeyRange(object: string, min: number | undefined, max: number | undefined): { gte: string; lte: string } {
  const prefix = objectPrefix(object);
  return {
    gte: prefix + sortableNumber(min ?? Number.NEGATIVE_INFINITY),
    lte: prefix + sortableNumber(max ?? Number.POSITIVE_INFINITY),
  };
}
