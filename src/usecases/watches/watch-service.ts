import { randomBytes, randomUUID } from "node:crypto";
import { ATTRIBUTION } from "../../domain/attribution.js";
import type { Plan } from "../../domain/plans.js";
import type { EventKind } from "../../domain/watches/watch.js";
import { invalidUrl, parseWebhookUrl } from "../../domain/watches/webhook-url.js";
import type { SavedQuery, StoredEvent, WatchEvent, WatchRecord, WatchStore } from "../../ports/watch-store.js";
import type { WebhookSender } from "../../ports/webhook-sender.js";
import type {
  WatchBody,
  WatchCreated,
  WatchDeleted,
  WatchEvents,
  WatchList,
  WatchView,
  WatchWebhook,
} from "../../schemas/responses.js";
import { ApiError } from "../../shared/api-error.js";
import type { Clock } from "../../shared/clock.js";
import type { Same } from "../../shared/same-type.js";
import { toStamp } from "../../shared/timestamps.js";
import type { Caller } from "../accounts/account-service.js";

// The five watch endpoints (spec 02, section 4). A watch belongs to the key
// that created it and counts against its account; another account's watch is
// answered exactly like a missing one.

export interface NewWatch {
  label: string;
  interval_minutes: number;
  minimum_outlets: number;
  notify_on: EventKind[];
  webhook_url: string | undefined;
  /** The /stories query, already checked by its declarations, as query-string values. */
  query: SavedQuery;
}

export class WatchService {
  constructor(
    private readonly store: WatchStore,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
  ) {}

  /** The checks that need no store or network, run before any work (400s). */
  static checkNew(plan: Plan, input: Pick<NewWatch, "interval_minutes" | "webhook_url">): void {
    const floor = plan.watch_interval_floor_minutes;
    if (input.interval_minutes < floor) {
      throw new ApiError(
        "invalid_parameter",
        `'interval_minutes' is ${input.interval_minutes}: the ${plan.id} plan's floor is ${floor} minutes, so give whole minutes from ${floor} to 1440.`,
        { parameter: "interval_minutes", plan_floor_minutes: floor },
      );
    }
    if (input.webhook_url !== undefined) parseWebhookUrl(input.webhook_url);
  }

  async create(caller: Caller, input: NewWatch): Promise<WatchCreated> {
    WatchService.checkNew(caller.plan, input);
    if (input.webhook_url !== undefined) {
      const resolved = await this.sender.resolve(parseWebhookUrl(input.webhook_url));
      if (!resolved.ok) throw invalidUrl(`'webhook_url' is refused: ${resolved.reason}. Webhooks go to public hosts only.`);
    }
    const now = toStamp(this.clock.now());
    const record: WatchRecord = {
      id: `wt_${randomUUID().replaceAll("-", "")}`,
      tenant_id: caller.tenant.id,
      key_id: caller.key.key_id,
      label: input.label,
      query: input.query,
      interval_minutes: input.interval_minutes,
      minimum_outlets: input.minimum_outlets,
      notify_on: [...input.notify_on],
      webhook_url: input.webhook_url ?? null,
      webhook_secret: input.webhook_url === undefined ? null : `whsec_${randomBytes(32).toString("base64url")}`,
      status: "active",
      created_at: now,
      last_run_at: null,
      // Due at once.
      next_run_at: now,
      watermark: null,
      consecutive_failures: 0,
      consecutive_incomplete: 0,
    };
    const outcome = await this.store.insertWatch(record, caller.plan.watch_limit);
    if (!outcome.inserted) throw watchLimit(caller, outcome.count);
    return { ...view(record), webhook_secret: record.webhook_secret, attribution: ATTRIBUTION };
  }

  /** The refusal a create would meet now (the plan's watch cap), for a preview; undefined when it would run. */
  async createRefusal(caller: Caller): Promise<ApiError | undefined> {
    const count = (await this.store.listWatches(caller.tenant.id)).length;
    return count >= caller.plan.watch_limit ? watchLimit(caller, count) : undefined;
  }

  async list(caller: Caller): Promise<WatchList> {
    const watches = await this.store.listWatches(caller.tenant.id);
    return { watches: watches.map(view), count: watches.length, limit: caller.plan.watch_limit, attribution: ATTRIBUTION };
  }

  async get(caller: Caller, id: string): Promise<WatchBody> {
    return { ...view(await this.owned(caller, id)), attribution: ATTRIBUTION };
  }

  async remove(caller: Caller, id: string): Promise<WatchDeleted> {
    if (!(await this.store.deleteWatch(caller.tenant.id, id))) throw notFound(id);
    return { deleted: true, id, attribution: ATTRIBUTION };
  }

  async events(caller: Caller, id: string, after: string | undefined, limit: number): Promise<WatchEvents> {
    const watch = await this.owned(caller, id);
    // One more than the page tells whether an older event is kept.
    const found = await this.store.listEvents(watch.id, after, limit + 1);
    const events = found.slice(0, limit);
    const next = found.length > limit ? events[events.length - 1]?.id : undefined;
    return { events, next_after: next ?? null, attribution: ATTRIBUTION };
  }

  private async owned(caller: Caller, id: string): Promise<WatchRecord> {
    const watch = await this.store.findWatch(caller.tenant.id, id);
    if (watch === undefined) throw notFound(id);
    return watch;
  }
}

// Compile-time: stored events are served and posted as they are, and a watch
// as it is stored but for what only the server keeps, so each must stay the
// shape its schema declares (a field added to a record would leak otherwise).
const eventServed: Same<StoredEvent, WatchEvents["events"][number]> = true;
const eventPosted: Same<WatchEvent, WatchWebhook["event"]> = true;
const watchServed: Same<Omit<WatchRecord, "tenant_id" | "key_id" | "webhook_secret">, WatchView> = true;
void eventServed;
void eventPosted;
void watchServed;

/** A watch without what only the server keeps (tenant, key, secret). */
function view(record: WatchRecord): WatchView {
  const { tenant_id: _tenant, key_id: _key, webhook_secret: _secret, ...rest } = record;
  return rest;
}

/** Another account's watch is reported as missing, the same as one that never was. */
function notFound(id: string): ApiError {
  return new ApiError("not_found", `No watch of this account has the id ${id}.`);
}

function watchLimit(caller: Caller, count: number): ApiError {
  const cap = caller.plan.watch_limit;
  return new ApiError(
    "watch_limit",
    `The ${caller.plan.id} plan allows ${cap} watches and the account keeps ${count}. Delete one first.`,
    { watch_limit: cap, watch_count: count },
  );
}
