import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
// The tokenizer is Hugging Face's own pure-JS reader of `tokenizer.json` (no
// native code, no dependencies, ~650 kB): it follows the file's normalizer,
// pre-tokenizer and WordPiece settings exactly, which a hand-written
// WordPiece would have to re-implement and keep in step with every model an
// operator may point to. @huggingface/transformers would bring the same
// tokenizer with a second ONNX runtime (onnxruntime-web) and a hub client.
import { Tokenizer } from "@huggingface/tokenizers";
import * as ort from "onnxruntime-node";
import type { Embedder } from "../../ports/embedder.js";

// A sentence-embedding model directory (models/e5-small-v2-q/ is the one
// shipped): `model.onnx` (a BERT-style encoder whose output is
// `last_hidden_state`), `tokenizer.json` and `tokenizer_config.json`, and
// optionally `model-card.json` ({name, query_prefix, passage_prefix,
// max_tokens}). The sentence vector is the mean of the last hidden state over
// its tokens ([CLS] and [SEP] included), L2-normalised.

export interface ModelCard {
  name: string;
  query_prefix: string;
  passage_prefix: string;
  max_tokens: number;
}

const DEFAULT_MAX_TOKENS = 128;

export class OnnxEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;

  private constructor(
    private readonly session: ort.InferenceSession,
    private readonly tokenizer: Tokenizer,
    private readonly card: ModelCard,
    dimensions: number,
  ) {
    this.model = card.name;
    this.dimensions = dimensions;
  }

  /** Loads the model in `dir`; one intra-op thread by default, as the machines this runs on are small and shared. */
  static async load(dir: string, options: { threads?: number } = {}): Promise<OnnxEmbedder> {
    for (const file of ["model.onnx", "tokenizer.json", "tokenizer_config.json"]) {
      if (!existsSync(join(dir, file))) throw new Error(`embedding model directory ${dir} lacks ${file}`);
    }
    const card = readModelCard(dir);
    const tokenizer = new Tokenizer(readJson(join(dir, "tokenizer.json")), readJson(join(dir, "tokenizer_config.json")));
    const session = await ort.InferenceSession.create(join(dir, "model.onnx"), {
      intraOpNumThreads: options.threads ?? 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: "all",
    });
    const embedder = new OnnxEmbedder(session, tokenizer, card, 0);
    const [probe] = await embedder.embedAsWritten(["probe"]);
    return new OnnxEmbedder(session, tokenizer, card, probe?.length ?? 0);
  }

  /** Token ids as the model sees them (prefix included, truncated): what `expected.json` checks. */
  tokenIds(text: string): number[] {
    const ids = this.tokenizer.encode(text).ids;
    if (ids.length <= this.card.max_tokens) return ids;
    // Keep the closing [SEP]: the model was trained on sequences that end with it.
    return [...ids.slice(0, this.card.max_tokens - 1), ids[ids.length - 1] as number];
  }

  embed(texts: readonly string[], role: "query" | "passage"): Promise<Float32Array[]> {
    const prefix = this.prefixOf(role);
    return this.embedAsWritten(texts.map((t) => prefix + t));
  }

  /** Texts as they are, prefix included. */
  embedAsWritten(texts: readonly string[]): Promise<Float32Array[]> {
    return this.embedTokens(texts.map((t) => this.tokenIds(t)));
  }

  /**
   * Texts as token ids (tokenIds), the form a session on another thread is handed (parallel-embedder.ts). Texts of
   * equal token length are run together, so no batch is padded: the int8 model quantizes activations per batch, and
   * padding moved values by up to 1e-2, so a text's vector would depend on its neighbours. Unpadded groups reproduce
   * `expected.json` in any batch, and skip the padding's work (faster by about 40% here).
   */
  async embedTokens(encoded: readonly number[][]): Promise<Float32Array[]> {
    const out: Float32Array[] = new Array<Float32Array>(encoded.length);
    for (const [width, members] of byLength(encoded)) {
      const vectors = await this.runEqual(
        members.map((i) => encoded[i] as number[]),
        width,
      );
      members.forEach((i, k) => (out[i] = vectors[k] as Float32Array));
    }
    return out;
  }

  /** The prefix of a role's texts. */
  prefixOf(role: "query" | "passage"): string {
    return role === "query" ? this.card.query_prefix : this.card.passage_prefix;
  }

  private async runEqual(rows: number[][], width: number): Promise<Float32Array[]> {
    const size = rows.length * width;
    const ids = BigInt64Array.from(rows.flat(), (id) => BigInt(id));
    const dims = [rows.length, width];
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor("int64", ids, dims),
      attention_mask: new ort.Tensor("int64", new BigInt64Array(size).fill(1n), dims),
    };
    if (this.session.inputNames.includes("token_type_ids")) {
      feeds.token_type_ids = new ort.Tensor("int64", new BigInt64Array(size), dims);
    }
    const output = (await this.session.run(feeds))["last_hidden_state"];
    if (output === undefined) throw new Error("the embedding model has no last_hidden_state output");
    const hidden = output.data as Float32Array;
    const dim = output.dims[2] as number;
    return rows.map((_, r) => meanPooled(hidden, r, width, dim));
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}

/** The positions of the texts of each token length: a model call each. */
export function byLength(encoded: readonly number[][]): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  encoded.forEach((ids, i) => {
    const group = groups.get(ids.length);
    if (group) group.push(i);
    else groups.set(ids.length, [i]);
  });
  return groups;
}

/** Mean over the tokens of row `r` (all attended), L2-normalised. */
function meanPooled(hidden: Float32Array, r: number, width: number, dim: number): Float32Array {
  const out = new Float32Array(dim);
  for (let t = 0; t < width; t++) {
    const at = (r * width + t) * dim;
    for (let d = 0; d < dim; d++) out[d] = (out[d] as number) + (hidden[at + d] as number);
  }
  let norm = 0;
  for (let d = 0; d < dim; d++) norm += (out[d] as number) ** 2;
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < dim; d++) out[d] = (out[d] as number) / norm;
  return out;
}

/** One session on one intra-op thread (the embedding stage takes parallel-embedder.ts's loader). */
export function loadOnnxEmbedder(dir: string): Promise<OnnxEmbedder> {
  return OnnxEmbedder.load(dir);
}

/** How NewsIndex applies the model in `dir` (its `model-card.json`, defaults where absent). */
export function readModelCard(dir: string): ModelCard {
  const path = join(dir, "model-card.json");
  const card = existsSync(path) ? (readJson(path) as Partial<ModelCard>) : {};
  return {
    name: card.name ?? dir.split("/").filter(Boolean).pop() ?? "model",
    query_prefix: card.query_prefix ?? "",
    passage_prefix: card.passage_prefix ?? "",
    max_tokens: card.max_tokens ?? DEFAULT_MAX_TOKENS,
  };
}

function readJson(path: string): object {
  return JSON.parse(readFileSync(path, "utf8")) as object;
}
