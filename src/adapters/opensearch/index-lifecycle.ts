import type { Client } from "@opensearch-project/opensearch";
import type {
  IndexLifecycle,
  MonthsCreated,
  RestoreOutcome,
  RetentionOutcome,
  SnapshotInfo,
} from "../../ports/index-lifecycle.js";
import type { ArticleIndices } from "./article-indices.js";
import type { IndexNames } from "./index-names.js";

// The monthly indices' lifecycle as operator commands (`newsindex indices ...`):
// months created ahead from the template (so the first write of a month does
// not pay for creating its shards, and a mapping problem shows before data
// arrives), retention by dropping whole monthly indices (a month is the unit of
// deletion: no delete-by-query), and snapshots of every monthly index into a
// filesystem repository (`fs`, under the nodes' `path.repo`) with restore.

interface SnapshotBody {
  snapshot: string;
  state?: string;
  indices?: string[];
  start_time?: string;
}

export class OpenSearchIndexLifecycle implements IndexLifecycle {
  constructor(
    private readonly client: Client,
    private readonly names: IndexNames,
    private readonly indices: ArticleIndices,
  ) {}

  async createMonths(months: readonly string[]): Promise<MonthsCreated> {
    await this.indices.ensureTemplate();
    const existing = new Set((await this.indices.months(true)).map((m) => m.month));
    const out: MonthsCreated = { created: [], existing: [] };
    for (const month of [...new Set(months)].sort()) {
      if (existing.has(month)) {
        out.existing.push(month);
        continue;
      }
      // The template gives the settings, mappings and the read alias.
      await this.client.indices.create({ index: this.names.articleIndex(month) }, { ignore: [400] });
      out.created.push(month);
    }
    this.indices.forget();
    return out;
  }

  async dropMonthsBefore(oldestKept: string, dryRun: boolean): Promise<RetentionOutcome> {
    const months = await this.indices.months(true);
    const out: RetentionOutcome = { dropped: [], kept: [] };
    for (const { month, index } of months) {
      if (month >= oldestKept) {
        out.kept.push(month);
        continue;
      }
      if (!dryRun) await this.client.indices.delete({ index });
      out.dropped.push(month);
    }
    this.indices.forget();
    return out;
  }

  async snapshot(location: string, name: string): Promise<SnapshotInfo> {
    const repository = await this.repository(location);
    const { body } = await this.client.snapshot.create({
      repository,
      snapshot: name,
      wait_for_completion: true,
      body: { indices: this.names.articlePattern, include_global_state: false, ignore_unavailable: true },
    });
    return this.info((body as { snapshot: SnapshotBody }).snapshot);
  }

  async snapshots(location: string): Promise<SnapshotInfo[]> {
    const repository = await this.repository(location);
    const { body } = await this.client.snapshot.get({ repository, snapshot: "_all" });
    return ((body as { snapshots?: SnapshotBody[] }).snapshots ?? []).map((s) => this.info(s));
  }

  async restore(location: string, name: string, months?: readonly string[]): Promise<RestoreOutcome> {
    const repository = await this.repository(location);
    const { body } = await this.client.snapshot.get({ repository, snapshot: name });
    const snapshot = (body as { snapshots?: SnapshotBody[] }).snapshots?.[0];
    if (snapshot === undefined) throw new Error(`no snapshot ${name} in ${location}`);
    const held = this.info(snapshot).months;
    const wanted = months === undefined ? held : held.filter((m) => months.includes(m));
    if (wanted.length === 0) return { snapshot: name, months: [] };
    const targets = wanted.map((m) => this.names.articleIndex(m));
    // An open index cannot be restored over: the month is replaced as a whole.
    await this.client.indices.delete({ index: targets.join(","), ignore_unavailable: true }, { ignore: [404] });
    await this.client.snapshot.restore({
      repository,
      snapshot: name,
      wait_for_completion: true,
      body: { indices: targets.join(","), include_aliases: true, include_global_state: false },
    });
    this.indices.forget();
    return { snapshot: name, months: wanted };
  }

  /** Registers the filesystem repository at `location` (idempotent); its name is the deployment's. */
  private async repository(location: string): Promise<string> {
    const repository = `${this.names.prefix}-snapshots`;
    await this.client.snapshot.createRepository({ repository, body: { type: "fs", settings: { location } } });
    return repository;
  }

  private info(s: SnapshotBody): SnapshotInfo {
    const months = (s.indices ?? []).flatMap((index) => {
      const month = this.names.monthOf(index);
      return month === undefined ? [] : [month];
    });
    return { name: s.snapshot, state: s.state ?? "UNKNOWN", months: months.sort(), startedAt: s.start_time ?? "" };
  }
}
