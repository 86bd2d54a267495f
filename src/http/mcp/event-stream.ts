import { PassThrough } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { transportRefusal } from "./transport-refusal.js";

// GET /mcp opens the server-to-client event stream of the Streamable HTTP
// transport. Our tools answer on the POST that asked, and the server starts
// nothing on its own (no list changes, no notifications), so the stream only
// carries keep-alive comments; it exists so that clients which open it get
// the transport's documented behaviour. Open streams are ended when the
// server closes, or a graceful close would wait on them forever.

const KEEP_ALIVE_MS = 15_000;

export class EventStreams {
  private readonly open = new Set<PassThrough>();

  serve(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    if (!(request.headers.accept ?? "").includes("text/event-stream")) {
      return reply
        .status(406)
        .type("application/json; charset=utf-8")
        .send(transportRefusal(-32000, "Not Acceptable: GET /mcp answers text/event-stream only"));
    }
    const stream = new PassThrough();
    const timer = setInterval(() => stream.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
    timer.unref();
    this.open.add(stream);
    stream.once("close", () => {
      clearInterval(timer);
      this.open.delete(stream);
    });
    // A first comment flushes the headers, so the client knows the stream is open.
    stream.write(": open; this server sends no unprompted messages\n\n");
    return reply
      .status(200)
      .headers({ "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" })
      .send(stream);
  }

  closeAll(): void {
    for (const stream of this.open) stream.end();
  }

  get size(): number {
    return this.open.size;
  }
}
