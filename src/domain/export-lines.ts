import { toArticle, toCompactArticle, type ArticleDetail } from "./article.js";

// The lines an export sends: one Article per stored document, as the `view`
// asks, each ending in a newline, encoded as UTF-8 one after another. Made
// where the documents are read (an index's read thread), so the stream only
// hashes and writes bytes.

export type ExportView = "full" | "compact";

/** A run of lines: `bytes` holds them back to back, `ends[i]` is the offset just past line i's newline. */
export interface EncodedLines {
  bytes: Uint8Array;
  ends: number[];
}

const NEWLINE = 10;
const encoder = new TextEncoder();
/** Where lines are encoded, reused by every call on a thread (and grown for a longer run): one copy per run leaves it. */
let scratch = new Uint8Array(1 << 21);

/** The lines of `docs` (stored ArticleDetail JSON) in the order given. */
export function encodeLines(docs: readonly string[], view: ExportView): EncodedLines {
  const present = presenter(view, docs[0]);
  let bytes = scratch;
  let at = 0;
  const ends: number[] = [];
  for (const doc of docs) {
    const line = present(doc);
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (at + line.length * 3 + 1 > bytes.length) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, at + line.length * 3 + 1));
      grown.set(bytes.subarray(0, at));
      bytes = scratch = grown;
    }
    at += encoder.encodeInto(line, bytes.subarray(at)).written;
    bytes[at++] = NEWLINE;
    ends.push(at);
  }
  // A copy of the exact size: a view would carry its whole buffer across threads.
  return { bytes: bytes.slice(0, at), ends };
}

/**
 * The lines of `docs` written into `target` from its start, as encodeLines makes them: their ends, or undefined when
 * they do not all fit (what was written is then of no use).
 */
export function encodeLinesInto(docs: readonly string[], view: ExportView, target: Uint8Array): number[] | undefined {
  const present = presenter(view, docs[0]);
  let at = 0;
  const ends: number[] = [];
  for (const doc of docs) {
    const line = present(doc);
    const { read, written } = encoder.encodeInto(line, target.subarray(at));
    at += written;
    if (read < line.length || at >= target.length) return undefined;
    target[at++] = NEWLINE;
    ends.push(at);
  }
  return ends;
}

/** The stored document as the article `view` asks for. */
function presenter(view: ExportView, sample: string | undefined): (doc: string) => string {
  if (view === "compact") return (doc) => JSON.stringify(toCompactArticle(toArticle(JSON.parse(doc) as ArticleDetail)));
  // Stored documents carry the Article fields first, in Article order: the line is their prefix. Checked on the
  // run's first document against the parsed form; a document stored otherwise is parsed.
  const full = (doc: string): string => JSON.stringify(toArticle(JSON.parse(doc) as ArticleDetail));
  if (sample === undefined || articlePrefix(sample) !== full(sample)) return full;
  return (doc) => articlePrefix(doc) ?? full(doc);
}

/** The first field after the Article fields in a stored document; the same text cannot occur inside a value. */
const DETAIL_START = ',"activity_density":';
/** The last Article field (event class names hold no bracket), ending the prefix. */
const LAST_ARTICLE_FIELD = ',"event_types":[';

/** The Article fields of a stored document laid out as written (id first, event_types last); undefined otherwise. */
function articlePrefix(doc: string): string | undefined {
  const at = doc.indexOf(DETAIL_START);
  if (at < 0 || !doc.startsWith('{"id":')) return undefined;
  // The event classes' list is the prefix's last value: its opening bracket is the last one before the cut.
  const list = doc.lastIndexOf(LAST_ARTICLE_FIELD, at);
  if (list < 0 || doc.indexOf("]", list) !== at - 1) return undefined;
  return doc.slice(0, at) + "}";
}
