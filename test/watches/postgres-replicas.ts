import { randomBytes } from "node:crypto";
import { startHttpsReceiver, type HttpsReceiver } from "../support/https-receiver.js";
import type { TestClock } from "../support/test-clock.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { CHILLIES_ID, reportsOf, writeReports } from "./watch-fixtures.js";
import { DATABASE_URL, dropSchemas } from "../support/test-shape.js";

// Two API replicas sharing one PostgreSQL control store (a schema of their own, dropped on close), both holding the
// story of the watch fixtures at 3 outlets, and an https webhook receiver their deliveries are trusted to reach.

export interface PostgresReplicas {
  replicas: [TestServer, TestServer];
  receiver: HttpsReceiver;
  close(): Promise<void>;
}

export async function startPostgresReplicas(clock: TestClock, fileName: string): Promise<PostgresReplicas> {
  const schema = `newsindex_test_${randomBytes(6).toString("hex")}`;
  const receiver = await startHttpsReceiver(["localhost"]);
  const config = {
    controlStore: "postgres" as const,
    databaseUrl: DATABASE_URL,
    databaseSchema: schema,
    webhookTestHost: "localhost",
    webhookTestCaFile: receiver.caFile,
  };
  const files = () => [writeReports(reportsOf(CHILLIES_ID, 0, 3, "20230702155500"), fileName)];
  const replicas: [TestServer, TestServer] = [
    await startTestServer({ files: files(), clock, config }),
    await startTestServer({ files: files(), clock, config }),
  ];
  return {
    replicas,
    receiver,
    async close() {
      for (const replica of replicas) await replica.close();
      await receiver.close();
      await dropSchemas([schema]);
    },
  };
}
