import { serveRequests, threadData } from "../threads/worker-rpc.js";
import { OnnxEmbedder } from "./onnx-embedder.js";

// A model session on a thread of its own (parallel-embedder.ts): it embeds the
// token ids it is handed, one call at a time, on one intra-op thread.

export interface SessionThreadData {
  modelDir: string;
}

export type SessionRequest = { kind: "embed"; encoded: number[][] } | { kind: "close" };

/** Runs on a session's thread. */
export function serveSession(): void {
  const { modelDir } = threadData<SessionThreadData>();
  const loaded = OnnxEmbedder.load(modelDir);
  // Loading fails the first call, not the thread's start.
  loaded.catch(() => undefined);
  serveRequests(async (request: SessionRequest): Promise<Float32Array[]> => {
    if (request.kind === "close") {
      await (await loaded).close();
      return [];
    }
    return (await loaded).embedTokens(request.encoded);
  });
}
