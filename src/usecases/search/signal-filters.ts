import type { SignalRange } from "../../domain/search-query.js";
import { isSignalName, SIGNAL_NAMES, type SignalName } from "../../domain/vocabularies/signals-v1.js";
import type { LIST_FILTERS, ParamsOf, SHARED_FILTERS } from "../../schemas/params.js";
import { ApiError, invalidParameter } from "../../shared/api-error.js";
import { closestName } from "../../shared/closest-name.js";

// The signal filters of spec section 4 as ranges on intensities: `signal`
// with `signal_min`/`signal_max`, each `signals` clause `name[:min[:max]]`,
// and `signal_percentile_min`, with their cross-field rules (rules 2 and 3).
// All ranges must hold; a range matches articles carrying the signal.

/** The signal parameters as validated against their declarations (schemas/params.ts). */
export type SignalParams = Pick<
  ParamsOf<typeof SHARED_FILTERS & typeof LIST_FILTERS>,
  "signal" | "signal_min" | "signal_max" | "signals" | "signal_percentile_min"
>;

/** `signal_percentile_min`: the threshold is the intensity at `percentile` among the matching articles carrying `name`. */
export interface PercentileRequest {
  name: SignalName;
  percentile: number;
}

export function signalRangesOf(params: SignalParams): { ranges: SignalRange[]; percentile?: PercentileRequest } {
  const ranges: SignalRange[] = [];
  const signal = params.signal;
  for (const bound of ["signal_min", "signal_max", "signal_percentile_min"] as const) {
    if (params[bound] !== undefined && signal === undefined) {
      throw invalidParameter(bound, `'${bound}' bounds 'signal': give 'signal' too (or use 'signals=name:min:max').`);
    }
  }
  if (params.signal_percentile_min !== undefined && params.signal_min !== undefined) {
    throw invalidParameter(
      "signal_percentile_min",
      "'signal_percentile_min' and 'signal_min' both set the lower bound of 'signal': give one of them.",
    );
  }
  if (signal !== undefined && (params.signal_min !== undefined || params.signal_max !== undefined)) {
    ranges.push(range("signal_min", signal, params.signal_min, params.signal_max));
  }
  if (params.signals !== undefined) ranges.push(...parseClauses(params.signals));
  const percentile =
    signal !== undefined && params.signal_percentile_min !== undefined
      ? { name: signal, percentile: params.signal_percentile_min }
      : undefined;
  return percentile ? { ranges, percentile } : { ranges };
}

/** Decimal notation, as numbers are read from a query string everywhere (no exponent, no sign). */
const BOUND = /^\d{1,16}(\.\d{1,16})?$/;
const MAX_CLAUSES = 25;

function parseClauses(text: string): SignalRange[] {
  const clauses = text.split(",").map((c) => c.trim());
  if (clauses.length > MAX_CLAUSES)
    throw invalidParameter("signals", `'signals' has ${clauses.length} clauses; at most ${MAX_CLAUSES}.`);
  return clauses.map((clause) => {
    const parts = clause.split(":");
    const [name = "", min = "", max = ""] = parts;
    if (name === "" || parts.length > 3) {
      throw invalidParameter(
        "signals",
        `'signals' clause '${clause}' is not name[:min[:max]] (for example 'finance:2:' or 'conflict::5').`,
      );
    }
    if (!isSignalName(name)) {
      throw new ApiError(
        "unknown_signal",
        `'signals' names an unknown signal '${name}'. Did you mean '${closestName(name, SIGNAL_NAMES)}'? Signals: ${SIGNAL_NAMES.join(", ")}.`,
        { parameter: "signals" },
      );
    }
    for (const bound of [min, max]) {
      if (bound !== "" && !BOUND.test(bound)) {
        throw invalidParameter(
          "signals",
          `'signals' clause '${clause}' has a bound '${bound}' that is not a non-negative decimal number.`,
        );
      }
    }
    return range("signals", name, min === "" ? undefined : Number(min), max === "" ? undefined : Number(max));
  });
}

function range(parameter: string, name: SignalName, min: number | undefined, max: number | undefined): SignalRange {
  if (min !== undefined && max !== undefined && min > max) {
    throw invalidParameter(parameter, `The lower bound of '${name}' (${min}) is above its upper bound (${max}).`);
  }
  return { name, ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}
