// Fastify hello-world on the same machine: the floor any Fastify API stands on.
// Prints {"port"} on stdout once listening.

import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/", async () => ({ hello: "world" }));
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
console.log(JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 }));
process.on("SIGTERM", () => {
  void app.close().then(() => process.exit(0));
});
