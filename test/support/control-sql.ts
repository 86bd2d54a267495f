import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import type { Config } from "../../src/config/config.js";

// Reads and changes a server's control database directly, as an operator's
// tool would: control.db in the data dir (the embedded shape) or the server's
// PostgreSQL schema (the scaled shape). Statements are written once in the SQL
// both understand, with `?` placeholders.

export async function controlSql<Row = Record<string, unknown>>(
  server: { config: Config; dataDir: string },
  sql: string,
  params: readonly unknown[] = [],
): Promise<Row[]> {
  const { config } = server;
  if (config.controlStore === "postgres" && config.databaseUrl !== undefined) {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      await client.query(`SET search_path TO ${config.databaseSchema}`);
      let n = 0;
      const result = await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        [...params],
      );
      return result.rows as Row[];
    } finally {
      await client.end();
    }
  }
  const db = new Database(join(server.dataDir, "control.db"));
  try {
    const statement = db.prepare(sql);
    return statement.reader ? (statement.all(...params) as Row[]) : (statement.run(...params), []);
  } finally {
    db.close();
  }
}
