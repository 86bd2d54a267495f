import { createHash } from "node:crypto";
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

export interface Statement {
  text: string;
  values: unknown[];
}

/** What a locked read decided: the one statement to write (none when nothing changes), and the answer from its rows. */
export interface Decision<T> {
  write?: Statement;
  answer(written: pg.QueryResultRow[]): T;
}

export interface ReadThenWriteOptions {
  /**
   * False: the commit returns before its record reaches the disk (and releases its locks then), so a server crash
   * may lose the transaction, never part of it. Only for a write whose loss a later durable write makes good.
   */
  durable?: boolean;
}

/**
 * A transaction of a read and one write decided from it, in two round trips on a pool whose connections pipeline
 * (`pipeline: true`): BEGIN goes out with the lock and the read, COMMIT with the write. The lock is held from the
 * read to the commit, across one decision of this process rather than a round trip per statement. The lock is a
 * statement of its own: a statement that waits for a row lock still reads other tables as they were when it
 * started, so the read must start once the lock is taken.
 */
export async function readThenWrite<T>(
  pool: pg.Pool,
  lock: Statement,
  read: Statement,
  decide: (rows: pg.QueryResultRow[]) => Decision<T>,
  options: ReadThenWriteOptions = {},
): Promise<T> {
  const client = await pool.connect();
  // Queued together, awaited together: a failed statement fails those behind it in the transaction.
  const [begin, locking, reading] = inOneWrite(client, () => [
    client.query(options.durable === false ? "BEGIN; SET LOCAL synchronous_commit = off" : "BEGIN"),
    client.query(prepared(lock)),
    client.query(prepared(read)),
  ]);
  try {
    const [, , { rows }] = await Promise.all([begin, locking, reading]);
    const decision = decide(rows);
    const [writing, committing] = inOneWrite(client, () => [
      decision.write ? client.query(prepared(decision.write)) : undefined,
      client.query("COMMIT"),
    ]);
    const [written] = await Promise.all([writing, committing]);
    return decision.answer(written?.rows ?? []);
  } catch (error) {
    // Every queued statement has answered by now (each settles before the next); a COMMIT after a failed statement
    // ended the transaction already, and ROLLBACK outside one only warns.
    await Promise.allSettled([begin, locking, reading]);
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
}

/** The part of a connection's socket that holds writes back. */
interface Corkable {
  cork?: () => void;
  uncork?: () => void;
}

/**
 * Queues statements on a pipelining connection so they leave in one socket write: node-postgres writes each
 * statement on its own (a system call each, the API's largest CPU item per call with ~11 statements); its socket
 * is held corked while they are queued (pg queues synchronously; its own cork per statement nests inside this one).
 */
function inOneWrite<T extends readonly unknown[]>(client: pg.PoolClient, queue: () => T): T {
  const socket = (client as unknown as { connection?: { stream?: Corkable } }).connection?.stream;
  socket?.cork?.();
  try {
    return queue();
  } finally {
    socket?.uncork?.();
  }
}

const names = new Map<string, string>();

/**
 * The statement under a name of its text: each connection parses it once, then runs it by name. For the few texts
 * every call runs (key, counters): parsing and planning them anew was half of a reserve and settle's time.
 */
export function prepared(statement: Statement): pg.QueryConfig {
  let name = names.get(statement.text);
  if (name === undefined) {
    name = `n${createHash("sha256").update(statement.text).digest("hex").slice(0, 24)}`;
    names.set(statement.text, name);
  }
  return { name, text: statement.text, values: statement.values };
}
