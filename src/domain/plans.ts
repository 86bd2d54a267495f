// The plan vocabulary: one table. Figures are ours (the spec leaves them "not shown")
// and are served in /docs/completeness.md.

export const PLAN_IDS = ["free", "build", "scale", "archive"] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface Plan {
  id: PlanId;
  /** Per-minute credit rate; the bucket refills continuously. */
  credits_per_minute: number;
  /** Free calls (previews, /account, MCP initialize and tools/list) and refused requests per minute. */
  messages_per_minute: number;
  /** Credits included each calendar month (UTC); 0 means unlimited. */
  credits_limit: number;
  /** True: the key stops at its allocation. False: overage is billed. */
  hard_cap: boolean;
  /** How far back a query may reach; null is the full archive. */
  history_days: number | null;
  /** Watches the account may keep. */
  watch_limit: number;
  /** Shortest watch interval, minutes. */
  watch_interval_floor_minutes: number;
}

export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: {
    id: "free",
    messages_per_minute: 60,
    credits_per_minute: 30,
    credits_limit: 1_000,
    hard_cap: true,
    history_days: 30,
    watch_limit: 2,
    watch_interval_floor_minutes: 60,
  },
  build: {
    id: "build",
    messages_per_minute: 300,
    credits_per_minute: 300,
    credits_limit: 50_000,
    hard_cap: false,
    history_days: 365,
    watch_limit: 25,
    watch_interval_floor_minutes: 15,
  },
  scale: {
    id: "scale",
    messages_per_minute: 1200,
    credits_per_minute: 1_500,
    credits_limit: 500_000,
    hard_cap: false,
    history_days: 1_825,
    watch_limit: 200,
    watch_interval_floor_minutes: 5,
  },
  archive: {
    id: "archive",
    messages_per_minute: 3000,
    credits_per_minute: 3_000,
    credits_limit: 0,
    hard_cap: false,
    history_days: null,
    watch_limit: 1_000,
    watch_interval_floor_minutes: 1,
  },
};

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}
