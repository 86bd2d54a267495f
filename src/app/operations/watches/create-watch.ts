import { Type } from "@sinclair/typebox";
import { priceOf } from "../../../domain/pricing.js";
import { DELIVERY_ATTEMPTS_MAX, WATCH_LIMITS } from "../../../domain/watches/watch.js";
import { jsonBody, WatchParams } from "../../../schemas/params.js";
import { WatchCreatedSchema } from "../../../schemas/responses.js";
import { WatchService } from "../../../usecases/watches/watch-service.js";
import { defineOperation } from "../../operation.js";
import { planStoriesCall, toSavedQuery, WATCH_QUERY_FIELDS } from "./watch-query.js";
import { watchesOf } from "./watch-store-required.js";

const { Optional } = Type;

/** Runs a month holds at an interval, for the estimate: a 30-day month. */
const MONTH_MINUTES = 30 * 24 * 60;

export const createWatchOperation = defineOperation({
  name: "createWatch",
  tool: "create_watch",
  method: "POST",
  path: "/watches",
  pathParams: [],
  summary: "Save a /stories query that runs on an interval",
  description:
    "Creates a watch: the /stories query in the body (`q`, `mode` and the filters, with their /stories names and rules; `name` is the proper-name filter, `label` the label) runs every `interval_minutes`, recording `new_story` when a story reaches `minimum_outlets` and `story_growth` when it crosses 5, 15, 40 or 100 outlets or grows by ten. Events are kept seven days (GET /watches/{id}/events) and, with `webhook_url`, POSTed signed with the `webhook_secret` returned only here. `from`, `to`, `offset`, `limit`, `sort` and `signal_percentile_min` are not part of a watch. 1 credit; each run is charged what its /stories query costs, each delivery attempt 1 credit. `estimate=true` adds `per_run`, `runs_per_month` and `webhook_attempts_per_event_max`.",
  sideEffects: true,
  status: 201,
  params: Type.Object({}),
  body: jsonBody({
    label: Optional(WatchParams.label),
    interval_minutes: WatchParams.interval_minutes,
    minimum_outlets: Optional(WatchParams.minimum_outlets),
    notify_on: Optional(WatchParams.notify_on),
    webhook_url: Optional(WatchParams.webhook_url),
    ...WATCH_QUERY_FIELDS,
  }),
  response: WatchCreatedSchema,
  prepare(values, caller, deps) {
    const watches = watchesOf(deps);
    const query = toSavedQuery(values);
    // The query is checked by /stories' own rules now, so a saved watch always runs.
    const run = planStoriesCall(query, undefined, caller, deps);
    const input = {
      label: values.label ?? "",
      interval_minutes: values.interval_minutes,
      minimum_outlets: values.minimum_outlets ?? 2,
      notify_on: [...(values.notify_on ?? ["new_story", "story_growth"])],
      webhook_url: values.webhook_url,
      query,
    };
    WatchService.checkNew(caller.plan, input);
    return {
      price: priceOf({ operation: "watch" }),
      execute: () => watches.create(caller, input),
      refusal: () => watches.createRefusal(caller),
      preview: {
        per_run: { min: run.price.min, max: run.price.max },
        runs_per_month: Math.ceil(MONTH_MINUTES / input.interval_minutes),
        webhook_attempts_per_event_max: input.webhook_url === undefined ? 0 : DELIVERY_ATTEMPTS_MAX,
        stories_per_run: WATCH_LIMITS.storiesPerRun,
      },
    };
  },
});
