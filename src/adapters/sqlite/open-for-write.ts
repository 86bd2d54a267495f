import { existsSync, renameSync } from "node:fs";
import { ArticlePartition, OutdatedIndexError } from "./article-partition.js";
import { PartitionWriter } from "./partition-writer.js";

// Opens a monthly index to write into it, creating it when new. A file built
// with an earlier index layout is moved aside (`<file>.schema<N>`, kept, not
// deleted) and a fresh index takes its place: re-ingesting its files rebuilds
// the month. Until then, queries report that month as unreadable.

export function openForWrite(month: string, path: string): PartitionWriter {
  try {
    return new PartitionWriter(new ArticlePartition(month, path, { create: true }));
  } catch (error) {
    if (!(error instanceof OutdatedIndexError)) throw error;
    for (const suffix of ["", "-wal", "-shm"]) {
      if (existsSync(path + suffix)) renameSync(path + suffix, `${path}.schema${error.version}${suffix}`);
    }
    return new PartitionWriter(new ArticlePartition(month, path, { create: true }));
  }
}
