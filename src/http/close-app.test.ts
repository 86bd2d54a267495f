import { connect } from "node:net";
import { once } from "node:events";
import Fastify from "fastify";
import { expect, it } from "vitest";
import { closeApp } from "./close-app.js";

it("cuts a connection still open after the grace period instead of waiting on it", async () => {
  const app = Fastify();
  app.post("/upload", async () => ({ ok: true }));
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP port");
  // A request whose body never finishes arriving: a graceful close alone would wait for it forever.
  const socket = connect(address.port, "127.0.0.1");
  await once(socket, "connect");
  socket.write("POST /upload HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{");
  await new Promise((resolve) => setTimeout(resolve, 50));
  const closed = closeApp(app, 200).then(() => "closed");
  const stuck = new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000).unref());
  expect(await Promise.race([closed, stuck])).toBe("closed");
  // The client sees its connection closed.
  if (!socket.destroyed) await once(socket, "close");
});
