// The operator's hold on a scaled index's monthly indices: create months ahead
// of the writes that would create them, drop months older than a horizon, and
// snapshot and restore them through a repository the engine writes to. Only an
// engine with indices of its own answers it (the embedded shape's months are
// files in the data dir, copied and deleted as files).

export interface MonthsCreated {
  /** Months (`YYYYMM`) created now. */
  created: string[];
  /** Months that existed already. */
  existing: string[];
}

export interface RetentionOutcome {
  /** Months (`YYYYMM`) dropped, or that would be with `dryRun`. */
  dropped: string[];
  /** Months kept. */
  kept: string[];
}

export interface SnapshotInfo {
  name: string;
  /** SUCCESS, PARTIAL, FAILED, IN_PROGRESS: as the engine reports it. */
  state: string;
  /** Months (`YYYYMM`) the snapshot holds. */
  months: string[];
  startedAt: string;
}

export interface RestoreOutcome {
  snapshot: string;
  /** Months restored. */
  months: string[];
}

export interface IndexLifecycle {
  /** Creates the monthly indices of `months` that do not exist yet, from the template. */
  createMonths(months: readonly string[]): Promise<MonthsCreated>;
  /** Drops every monthly index of a month before `oldestKept` (`YYYYMM`); with `dryRun`, only says which. */
  dropMonthsBefore(oldestKept: string, dryRun: boolean): Promise<RetentionOutcome>;
  /** Snapshots every monthly index into the repository at `location` (a directory every node can write). */
  snapshot(location: string, name: string): Promise<SnapshotInfo>;
  /** The repository's snapshots, oldest first. */
  snapshots(location: string): Promise<SnapshotInfo[]>;
  /**
   * Restores the monthly indices of snapshot `name` (only `months` when given). A month that exists is replaced:
   * its index is dropped first, so the restore brings back exactly what the snapshot held.
   */
  restore(location: string, name: string, months?: readonly string[]): Promise<RestoreOutcome>;
}
