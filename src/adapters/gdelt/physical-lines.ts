// Splits a byte stream into physical lines without ever holding more than one line:
// memory stays flat whatever the file size. Only `\n` ends a line (a lone `\r` inside a
// field must not split a record); a `\r` before it is dropped so CRLF files read too.

export type PhysicalLine = { line: number; text: string } | { line: number; tooLong: true };

/** Lines longer than this are reported, not buffered (a corrupt file with no newlines). */
export const DEFAULT_MAX_LINE_CHARS = 32 * 1024 * 1024;

function stripCr(text: string): string {
  return text.endsWith("\r") ? text.slice(0, -1) : text;
}

/** 1-based physical lines of the UTF-8 text in `chunks` (a BOM is dropped). */
export async function* physicalLines(
  chunks: AsyncIterable<Uint8Array | string>,
  maxLineChars = DEFAULT_MAX_LINE_CHARS,
): AsyncGenerator<PhysicalLine> {
  const decoder = new TextDecoder("utf-8");
  let line = 0;
  let parts: string[] = [];
  let pending = 0;
  let overflow = false;

  const take = (last: string): PhysicalLine => {
    line += 1;
    const text = parts.length === 0 ? last : parts.join("") + last;
    parts = [];
    pending = 0;
    if (overflow) {
      overflow = false;
      return { line, tooLong: true };
    }
    return { line, text: stripCr(text) };
  };

  const feed = function* (chunk: string): Generator<PhysicalLine> {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf("\n", start);
      if (newline === -1) break;
      yield take(overflow ? "" : chunk.slice(start, newline));
      start = newline + 1;
    }
    // The unterminated tail waits for the next chunk; past the limit it is dropped.
    if (start < chunk.length && !overflow) {
      const rest = chunk.slice(start);
      pending += rest.length;
      if (pending > maxLineChars) {
        overflow = true;
        parts = [];
        pending = 0;
      } else {
        parts.push(rest);
      }
    }
  };

  for await (const chunk of chunks) {
    yield* feed(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
  }
  yield* feed(decoder.decode());
  if (overflow || parts.length > 0) yield take("");
}
