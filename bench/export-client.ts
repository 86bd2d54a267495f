// The export benchmark's client (export-bench.ts), in a process of its own as a
// real client is: GET /export, lines counted and discarded. Prints its
// figures as one JSON line at the end.
//
//   node --import tsx bench/export-client.ts URL KEY

import { request } from "node:http";

/** Enough for the manifest line. */
const TAIL_BYTES = 8192;

const [url, key] = process.argv.slice(2) as [string, string];
const started = performance.now();
const req = request(url, { headers: { "x-api-key": key } }, (res) => {
  let lines = 0;
  let bytes = 0;
  let firstLineMs = 0;
  // The last bytes received, where the manifest line is: the client decodes nothing else.
  let tail: Buffer = Buffer.alloc(0);
  res.on("data", (chunk: Buffer) => {
    if (bytes === 0) firstLineMs = Math.round(performance.now() - started);
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
    tail = chunk.length >= TAIL_BYTES ? chunk.subarray(-TAIL_BYTES) : Buffer.concat([tail, chunk]).subarray(-TAIL_BYTES);
  });
  res.on("end", () => {
    const ms = performance.now() - started;
    const last = tail.toString("utf8").trimEnd().split("\n").at(-1) ?? "{}";
    const { manifest } = JSON.parse(last) as { manifest: unknown };
    process.stdout.write(JSON.stringify({ count: lines - 1, bytes, ms, firstLineMs, manifest }) + "\n");
  });
});
req.on("error", (error) => {
  console.error(error);
  process.exit(1);
});
req.end();
