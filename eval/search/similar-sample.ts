// The bundled sample as /similar's variants need it, read from a real server with every article embedded: each
// article's story, language, vector and GKG themes with how many times the record mentions each (the served
// `topics` keep only the distinct codes, so the counts are read from the sample files themselves).

import * as C from "../../src/adapters/gdelt/gkg-columns.js";
import { readGkgRows } from "../../src/adapters/gdelt/gkg-lines.js";
import { themeMentions } from "../../src/adapters/gdelt/gkg-signals.js";
import { embeddingText } from "../../src/domain/embedding-text.js";
import { json, SAMPLE_FILES, startTestServer } from "../../test/support/test-server.js";

export interface SampleArticle {
  id: string;
  story: string;
  language: string;
  /** The headline ("" when the record carries none). */
  title: string;
  /** The text the product embeds an article by (embedding-text.ts): headline and names. */
  text: string;
  /** Theme code -> mentions in the record. */
  themes: Map<string, number>;
  /** Its share of each kind of news (news-kinds.ts), where a variant computed them. */
  kinds?: Float32Array;
  /** Unit length; null when the article has no text to embed. */
  vector: Float32Array | null;
}

export async function loadSample(): Promise<SampleArticle[]> {
  const mentions = await themeCounts();
  const server = await startTestServer({ embed: true });
  try {
    const ids: string[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await json<{ results: Array<{ id: string }>; has_more: boolean }>(
        await server.get(`/search?limit=100&offset=${offset}&view=compact`),
      );
      ids.push(...page.results.map((r) => r.id));
      if (!page.has_more) break;
    }
    const { articles } = await server.container.index.getArticles(ids);
    const model = server.container.embedder.model;
    const out: SampleArticle[] = [];
    for (const id of ids) {
      const article = articles.get(id);
      if (article === undefined) continue;
      const found = await server.container.index.vectorOf(id, model);
      out.push({
        id,
        story: article.story_id ?? id,
        language: article.language ?? "",
        title: article.title?.trim() ?? "",
        text: embeddingText(article),
        themes: mentions.get(id) ?? new Map(),
        vector: found.status === "found" ? found.vector : null,
      });
    }
    return out;
  } finally {
    await server.close();
  }
}

/** Per record id: each theme (lower case, as `topics` spells it) and its mentions. */
async function themeCounts(): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  for (const file of Object.values(SAMPLE_FILES)) {
    for await (const row of readGkgRows(file)) {
      if (!("fields" in row)) continue;
      const counts = new Map<string, number>();
      for (const theme of themeMentions(row.fields[C.COL_V2_THEMES] ?? "", row.fields[C.COL_V1_THEMES] ?? "")) {
        const code = theme.toLowerCase();
        counts.set(code, (counts.get(code) ?? 0) + 1);
      }
      out.set((row.fields[C.COL_GKGRECORDID] ?? "").trim(), counts);
    }
  }
  return out;
}
