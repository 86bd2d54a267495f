import { createServer, request as forward, type Server } from "node:http";

// The conformance CLI has no way to send an API key, and /mcp answers 401
// without one. This loopback reverse proxy adds the key to every request and
// forwards everything else untouched (Host and Origin included, which the
// DNS-rebinding scenario relies on).

export interface KeyProxy {
  url: string;
  close(): Promise<void>;
}

export async function startKeyProxy(targetUrl: string, key: string): Promise<KeyProxy> {
  const target = new URL(targetUrl);
  const server: Server = createServer((incoming, outgoing) => {
    const upstream = forward(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, "x-api-key": key },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on("error", () => outgoing.destroy());
    outgoing.on("close", () => upstream.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("proxy did not bind a TCP port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
