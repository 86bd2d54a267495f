import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "selfsigned";

// A webhook receiver as a customer runs one: https on loopback with a
// certificate generated for the test (self-signed, for the given host names),
// recording every POST it gets and answering the status the test sets.

export interface ReceivedRequest {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface HttpsReceiver {
  port: number;
  /** The certificate, as a file for NEWSINDEX_WEBHOOK_TEST_CA_FILE. */
  caFile: string;
  requests: ReceivedRequest[];
  /** The status the next requests are answered with (204 by default). */
  answer(status: number): void;
  url(host: string, path?: string): string;
  close(): Promise<void>;
}

export async function startHttpsReceiver(hosts: string[] = ["localhost"]): Promise<HttpsReceiver> {
  const pems = await generate([{ name: "commonName", value: hosts[0] ?? "localhost" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "keyUsage", digitalSignature: true, keyCertSign: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames: hosts.map((value) => ({ type: 2 as const, value })) },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), "newsindex-receiver-"));
  const caFile = join(dir, "receiver-ca.pem");
  writeFileSync(caFile, pems.cert);
  const requests: ReceivedRequest[] = [];
  let status = 204;
  const server: Server = createServer({ key: pems.private, cert: pems.cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("receiver did not bind");
  return {
    port: address.port,
    caFile,
    requests,
    answer(next) {
      status = next;
    },
    url: (host, path = "/hooks/newsindex") => `https://${host}:${address.port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
