// How complete an answer is (spec section 2, `coverage`): every response that
// reads the index says whether it read all it should have, and why not.

export const COVERAGE_VALUES = ["complete", "timed_out", "range_too_wide", "recent_unavailable", "field_unavailable"] as const;
export type Coverage = (typeof COVERAGE_VALUES)[number];
