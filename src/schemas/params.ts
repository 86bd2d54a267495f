import { Type, type TLiteral, type TUnion } from "@sinclair/typebox";
import { SOURCE_TYPES } from "../domain/article.js";

// Every query parameter, declared once. Operations pick from here; REST
// validation, the unknown_parameter hint, OpenAPI and MCP tool schemas all
// derive from these declarations. `x-expected` is the human phrase used in
// invalid_parameter details where the constraint alone does not say it.

function oneOf<const T extends readonly string[]>(
  values: T,
  options: { description: string; default?: T[number] },
): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );
}

export const TIME_BOUND_PATTERN = "^(\\d{4}-\\d{2}-\\d{2}|\\d{14})$";

export const Params = {
  q: Type.String({
    minLength: 1,
    maxLength: 1000,
    description:
      'Keyword query. Words are ANDed; "quoted phrase", a OR b, and -word are understood. Omitted means a newest-first browse.',
  }),
  mode: oneOf(["keyword"] as const, {
    description: "Ranking mode. `keyword` (BM25). Semantic and hybrid ranking are not served by this index yet.",
    default: "keyword",
  }),
  source: Type.String({ minLength: 1, maxLength: 253, description: "Publisher domain, no scheme, no `www.`. Case-insensitive." }),
  source_type: oneOf(SOURCE_TYPES, { description: "Kind of source." }),
  publisher_country: Type.String({
    pattern: "^[A-Za-z]{2}$",
    description: "Publisher's country, two-character FIPS 10-4 identifier (e.g. `US`, `UK`, `GM`).",
    "x-expected": "a two-character country identifier such as US",
  }),
  language: Type.String({
    pattern: "^[A-Za-z]{3}$",
    description: "ISO 639-3 language, three letters (`eng`, `fra`). `en` is wrong; use three letters.",
    "x-expected": "an ISO 639-3 code of three letters such as eng (not en)",
  }),
  from: Type.String({
    pattern: TIME_BOUND_PATTERN,
    description:
      "Earliest `published_at`, `YYYY-MM-DD` or 14-digit UTC. Moved forward to the plan's reach when older (`from_clamped`), never refused.",
    "x-expected": "a date YYYY-MM-DD or a 14-digit UTC timestamp YYYYMMDDHHMMSS",
  }),
  to: Type.String({
    pattern: TIME_BOUND_PATTERN,
    description: "Latest `published_at`, `YYYY-MM-DD` (the whole day) or 14-digit UTC.",
    "x-expected": "a date YYYY-MM-DD or a 14-digit UTC timestamp YYYYMMDDHHMMSS",
  }),
  offset: Type.Integer({ minimum: 0, maximum: 100_000, default: 0, description: "Zero-based offset, 0 to 100000." }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: "Page size, 1 to 100." }),
  view: oneOf(["full", "compact"] as const, {
    description: "`compact` keeps only id, title, url, source, published_at, language, story_id, score.",
    default: "full",
  }),
  article_id: Type.String({ minLength: 1, maxLength: 200, description: "Article id, as returned in `id`." }),
  estimate: Type.Boolean({
    description:
      "true: return the call's price (credit range, breakdown, credits remaining, whether it would run now) without running it. Costs 0.",
  }),
  max_credits: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    description: "Refuse the call at no cost (400 `credit_budget_exceeded`) when its worst case exceeds this many credits.",
  }),
} as const;
