import { Type, type Static } from "@sinclair/typebox";

// `signals` as structured clauses (spec section 4: "Over MCP it is an array
// of {name, min, max}"; document 2: a watch body's `signals` "may be the
// packed string or an array of {name, min, max}"). Declared once here, packed
// into the query-string form (`name:min:max`, comma-separated) before the one
// parser reads it, so both forms share every rule (unknown_signal, bounds).

const SignalClause = Type.Object(
  {
    name: Type.String({ pattern: "^[A-Za-z0-9_]+$", description: "A published signal name." }),
    min: Type.Optional(Type.Number({ description: "Inclusive lower bound; omitted is unbounded." })),
    max: Type.Optional(Type.Number({ description: "Inclusive upper bound; omitted is unbounded." })),
  },
  { additionalProperties: false },
);

export const SignalClauses = Type.Array(SignalClause, {
  minItems: 1,
  description:
    "Signal range clauses, ANDed: each {name, min, max}; a missing bound is unbounded. An unknown name is unknown_signal.",
});

export const SIGNAL_CLAUSES_EXPECTED = "a non-empty array of {name, min, max} objects (min and max optional numbers)";

/** The query-string form of checked clauses: `name:min:max`, comma-separated, an empty bound unbounded. */
export function packSignalClauses(clauses: Static<typeof SignalClauses>): string {
  return clauses.map((c) => `${c.name}:${c.min ?? ""}:${c.max ?? ""}`).join(",");
}
