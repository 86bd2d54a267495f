import { serveRequests, threadData } from "../threads/worker-rpc.js";
import { PartitionReader, type ReadRequest } from "./partition-reads.js";

// A read thread of the pool (read-pool.ts): its own connections to the
// monthly indexes, answering one read of one index at a time.

export interface ReadThreadData {
  /** The directory of the monthly index files. */
  dir: string;
}

/** Runs on a read thread. */
export function serveReads(): void {
  const reader = new PartitionReader(threadData<ReadThreadData>().dir);
  serveRequests((request: ReadRequest) => reader.run(request));
}
