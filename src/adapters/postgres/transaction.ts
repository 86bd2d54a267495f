import type pg from "pg";

export type Queryable = Pick<pg.PoolClient, "query">;

/** Runs `work` on one pooled connection inside BEGIN/COMMIT, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (db: Queryable) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
}
