import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { Pool } from "undici";

// A recording pass-through in front of the bench's OpenSearch node: the scaled
// shape's API is pointed at it once per row to learn the very requests it
// sends the node (path and body), which the bench then replays against the
// node directly as the "raw OpenSearch" column. Timed runs never go through it.

export interface NodeRequest {
  method: "GET" | "POST";
  /** Path and query string, e.g. `/bench-articles-202401,bench-articles-202402/_search?dfs...`. */
  path: string;
  body?: string;
}

export interface CaptureProxy {
  origin: string;
  /** Starts a fresh record; `take` returns what arrived since. */
  clear(): void;
  take(): NodeRequest[];
  close(): Promise<void>;
}

export async function startCaptureProxy(nodeOrigin: string): Promise<CaptureProxy> {
  const upstream = new Pool(nodeOrigin, { pipelining: 1, connections: 4 });
  let recorded: NodeRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = chunks.length > 0 ? Buffer.concat(chunks).toString("utf8") : undefined;
      const method = (req.method ?? "GET") as NodeRequest["method"];
      recorded.push({ method, path: req.url ?? "/", ...(body === undefined ? {} : { body }) });
      upstream
        .request({
          method,
          path: req.url ?? "/",
          headers: { "content-type": req.headers["content-type"] ?? "application/json" },
          ...(body === undefined ? {} : { body }),
        })
        .then(async (answer) => {
          const text = await answer.body.text();
          res.writeHead(answer.statusCode, { "content-type": "application/json" });
          res.end(text);
        })
        .catch((error: unknown) => {
          res.writeHead(502);
          res.end(String(error));
        });
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    clear: () => {
      recorded = [];
    },
    take: () => recorded,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await upstream.close();
    },
  };
}
