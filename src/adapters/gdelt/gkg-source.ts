import type { ArticleSource, SourceRecord } from "../../ports/article-source.js";
import { readGkgRows } from "./gkg-lines.js";
import { parseGkgRecord } from "./gkg-record.js";
import { PublisherCountryLookup, type PublisherCountryResolver } from "./publisher-country.js";

// The ArticleSource port over GKG 2.1 files. A bad row becomes an `ok: false` record
// and reading carries on; only an unreadable file (missing, corrupt compression) throws.

export class GkgArticleSource implements ArticleSource {
  constructor(private readonly publisherCountry: PublisherCountryResolver) {}

  /** A source with the lookup tables of `dataDir` (default: the project's `data/`). */
  static async create(dataDir?: string | URL): Promise<GkgArticleSource> {
    return new GkgArticleSource(await PublisherCountryLookup.load(dataDir));
  }

  async *read(path: string): AsyncGenerator<SourceRecord> {
    for await (const row of readGkgRows(path)) {
      if ("error" in row) {
        yield { ok: false, line: row.line, reason: row.error };
        continue;
      }
      const parsed = parseGkgRecord(row.fields, this.publisherCountry);
      yield parsed.ok
        ? { ok: true, line: row.line, article: parsed.article }
        : { ok: false, line: row.line, reason: parsed.reason };
    }
  }
}
