// What semantic ranking embeds of `q`: the text as written, less the keyword
// syntax that has no meaning to a sentence model (negated items, quote marks,
// the OR operator). Negations still apply in hybrid ranking's keyword half.

export function semanticText(q: string): string {
  return q
    .replace(/(^|\s)-(?:"[^"]*"?|\S+)/g, " ")
    .replace(/"/g, " ")
    .replace(/(^|\s)OR(?=\s|$)/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
