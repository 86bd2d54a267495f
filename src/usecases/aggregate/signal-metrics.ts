import { isSignalName, SIGNAL_NAMES, type SignalName } from "../../domain/vocabularies/signals-v1.js";
import { ApiError } from "../../shared/api-error.js";
import { closestName } from "../../shared/closest-name.js";

// `signal:<name>` metrics of GET /aggregate: per bucket, a signal's mean and
// its `percentile` (nearest rank) over the matching articles carrying it. The
// name is one of the published signals (signals-v1); another is
// `unknown_signal`, as in `signal` and `signals` (spec section 4, rule 2).

export function checkSignalMetric(name: string): SignalName {
  if (isSignalName(name)) return name;
  throw new ApiError(
    "unknown_signal",
    `'metrics' asks for signal:${name.slice(0, 100)}, which is not a published signal. Did you mean 'signal:${closestName(name, SIGNAL_NAMES)}'? Signals: ${SIGNAL_NAMES.join(", ")}.`,
    { parameter: "metrics" },
  );
}

/** A signal's mean as reported (here and in /graph/exposures `signal_stats`): 4 decimals. */
export function reportedMean(mean: number): number {
  return Math.round(mean * 10_000) / 10_000;
}
