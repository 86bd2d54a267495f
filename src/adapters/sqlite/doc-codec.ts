import { DeflatedJson } from "./deflated-json.js";
import { DOC_DICTIONARY } from "./doc-dictionary.js";

// How an article's JSON is stored in `docs` (partition-schema.ts): deflated with a dictionary of real articles,
// about a quarter of the JSON's size and under a page (no overflow pages). Every reader and writer of `docs`
// goes through here.

const docs = new DeflatedJson(DOC_DICTIONARY);

/** An article's JSON as its stored bytes. */
export function encodeDoc(json: string): Buffer {
  return docs.encode(json);
}

/** The JSON of stored bytes (encodeDoc's). */
export function decodeDoc(stored: Uint8Array): string {
  return docs.decode(stored);
}
