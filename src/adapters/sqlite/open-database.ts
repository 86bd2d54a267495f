import Database from "better-sqlite3";

/**
 * Opens a SQLite file the way every store here uses it: WAL, so readers never
 * block the writer (a `newsindex ingest` beside a serving process), NORMAL
 * sync (durable at checkpoints, fast commits), and a busy timeout instead of
 * immediate SQLITE_BUSY errors between processes.
 */
export function openDatabase(path: string, options: { fileMustExist?: boolean; busyTimeoutMs?: number } = {}): Database.Database {
  const db = new Database(path, { fileMustExist: options.fileMustExist ?? false });
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
