import { deflateRawSync, inflateRawSync } from "node:zlib";

// JSON stored as raw deflate with a preset dictionary of real examples of it, so the keys and common values of
// a short text cost what they would in the middle of a long one.

export class DeflatedJson {
  private readonly dictionary: Buffer;

  /** `dictionary`: never changed once something is stored with it (it is needed to read it back). */
  constructor(dictionary: string) {
    this.dictionary = Buffer.from(dictionary);
  }

  encode(json: string): Buffer {
    return deflateRawSync(json, { level: 6, dictionary: this.dictionary });
  }

  /** The JSON of stored bytes; a string is JSON stored as text (by a version before this encoding) and is itself. */
  decode(stored: Uint8Array | string): string {
    if (typeof stored === "string") return stored;
    return inflateRawSync(stored, { dictionary: this.dictionary }).toString("utf8");
  }
}
