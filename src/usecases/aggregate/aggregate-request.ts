import type { Interval } from "../../domain/aggregate/buckets.js";
import type { KeywordQuery } from "../../domain/keyword-query.js";
import type { ArticleFilters } from "../../domain/search-query.js";
import type { SignalName } from "../../domain/vocabularies/signals-v1.js";
import type { Window } from "../query-kernel/plan-window.js";

// What GET /aggregate runs once its parameters are checked
// (app/requests/aggregate-request.ts builds it): the use case's own input.

export interface AggregateMetrics {
  stories: boolean;
  outlets: boolean;
  /** `signal:<name>` metrics, by name. */
  signals: SignalName[];
}

export interface AggregateRequest {
  keywords: KeywordQuery | undefined;
  /** Filters with the window as the series covers it (plan applied). */
  filters: ArticleFilters;
  window: Window & { to: string };
  interval: Interval;
  metrics: AggregateMetrics;
  /** The metrics as given, in order. */
  metricNames: string[];
  percentile: number;
}
