import Database from "better-sqlite3";
import { decodeDoc, encodeDoc } from "../../src/adapters/sqlite/doc-codec.js";
import { decodeTerms, encodeTerms, fieldOf } from "../../src/adapters/sqlite/term-blob.js";
import { FILTER_FIELDS } from "../../src/domain/filter-fields.js";

// A monthly index as a build before the derived vocabularies wrote it: no
// `derived_fields` in its meta, no derived tables, no event_type or signal
// terms, articles stored without `signals` and `event_types`. Made from an
// index this version wrote, so every other part is exactly what it writes.

const DERIVED_CODES: readonly number[] = [FILTER_FIELDS.event_type.code, FILTER_FIELDS.signal.code];

export function makeOldFormat(path: string): void {
  const db = new Database(path);
  try {
    db.pragma("busy_timeout = 5000");
    db.transaction(() => {
      db.exec(`
        DELETE FROM meta WHERE key = 'derived_fields';
        DROP TABLE signal_values;
        DROP TABLE places;
        DROP TABLE amounts;
        DELETE FROM postings WHERE term % 32 IN (${DERIVED_CODES.join(", ")});
        DELETE FROM terms WHERE field IN (${DERIVED_CODES.join(", ")});
      `);
      const docs = db.prepare("SELECT rowid, doc FROM docs").all() as Array<{ rowid: number; doc: Buffer }>;
      const setDoc = db.prepare("UPDATE docs SET doc = ? WHERE rowid = ?");
      for (const row of docs) {
        const { signals: _signals, event_types: _events, ...article } = JSON.parse(decodeDoc(row.doc)) as Record<string, unknown>;
        setDoc.run(encodeDoc(JSON.stringify(article)), row.rowid);
      }
      const rows = db.prepare("SELECT rowid, terms FROM articles").all() as Array<{ rowid: number; terms: Buffer }>;
      const set = db.prepare("UPDATE articles SET terms = ? WHERE rowid = ?");
      for (const row of rows) {
        const kept = decodeTerms(row.terms).filter((id) => !DERIVED_CODES.includes(fieldOf(id)));
        set.run(encodeTerms(Uint32Array.from(kept)), row.rowid);
      }
    })();
  } finally {
    db.close();
  }
}
