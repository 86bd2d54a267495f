import { ApiError } from "../../shared/api-error.js";

// `signal:<name>` metrics of GET /aggregate: a signal's mean and percentile per
// bucket. They need the signal vocabulary (signals-v1) and the signal values
// each monthly index keeps, which this index does not hold yet. This is the
// one place that admits a signal metric: once the vocabulary is served, check
// the name against it here (an unknown name is `unknown_signal`) and compute
// the bucket values beside the article counts (AggregateQuery, AggregateBucket
// `signals`).

/** The signal name of a `signal:<name>` metric, once it can be served. */
export function checkSignalMetric(name: string): string {
  throw new ApiError(
    "invalid_parameter",
    `'metrics' asks for signal:${name.slice(0, 100)}, but signal metrics are not served by this index yet: use stories and outlets.`,
    { parameter: "metrics" },
  );
}
