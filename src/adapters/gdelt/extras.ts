// V2ExtrasXML is not well-formed XML: tags are concatenated with no root, content is
// HTML-escaped text that may itself contain `<`, and a truncated row can leave a tag
// unclosed. So no XML parser: a tolerant scan that pairs each `<NAME>` with the next
// `</NAME>`, and lets an unclosed tag run to the next opening tag (or the end).

const TAG_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const OPENING_TAG = /<[A-Za-z_][A-Za-z0-9_.-]*>/g;

/**
 * The raw (still entity-encoded) content of each top-level tag, keyed by tag name.
 * The first occurrence of a tag wins.
 */
export function parseExtras(xml: string): Map<string, string> {
  const tags = new Map<string, string>();
  let pos = 0;
  while (pos < xml.length) {
    const open = xml.indexOf("<", pos);
    if (open === -1) break;
    const gt = xml.indexOf(">", open + 1);
    if (gt === -1) break;
    const name = xml.slice(open + 1, gt);
    if (!TAG_NAME.test(name)) {
      pos = open + 1;
      continue;
    }
    const contentStart = gt + 1;
    const closing = `</${name}>`;
    const close = xml.indexOf(closing, contentStart);
    let contentEnd: number;
    if (close !== -1) {
      contentEnd = close;
      pos = close + closing.length;
    } else {
      OPENING_TAG.lastIndex = contentStart;
      const next = OPENING_TAG.exec(xml);
      contentEnd = next ? next.index : xml.length;
      pos = contentEnd;
    }
    if (!tags.has(name)) tags.set(name, xml.slice(contentStart, contentEnd));
  }
  return tags;
}
