import { once } from "node:events";
import cliProgress from "cli-progress";
import { loadConfig, type ConfigOverrides } from "../config/config.js";
import { createContainer } from "../container.js";
import { PLANS } from "../domain/plans.js";
import { exportOperation } from "../app/operations/export.js";
import { validateParams } from "../app/validate-params.js";
import { prepareExport } from "../usecases/export/export-articles.js";
import { toExportRequest, type ExportParams } from "../app/requests/export-params.js";
import { UsageError } from "./usage.js";

// `newsindex export [--data-dir DIR] [--FILTER VALUE ...] > file.ndjson`: the
// lines GET /export streams, written to stdout straight from the index, for
// dumps without HTTP. Filters are GET /export's parameters (`--q`,
// `--language eng`, `--from 2024-01-01`, `--resume-after ID`), checked by the
// same declarations; the operator's export has the full archive's reach and
// is not charged. A progress bar goes to stderr.

/** Not for the command line: there is nothing to price. */
const API_ONLY = new Set(["estimate", "max_credits"]);

export async function exportCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { dataDir, params } = parseExportArgs(argv);
  const overrides: ConfigOverrides = dataDir === undefined ? {} : { dataDir };
  const container = createContainer(loadConfig(env, overrides));
  try {
    const validated = validateParams(exportOperation, params, "query") as ExportParams;
    const prepared = await prepareExport(container.index, toExportRequest(validated), PLANS.archive, container.clock.now());
    const bar = progressBar(prepared.rows);
    let written = 0;
    const lines = prepared.lines(0, async () => undefined);
    for await (const chunk of lines) {
      // Once written, the memory the chunk is in is filled again.
      if (!process.stdout.write(chunk, () => lines.written(chunk))) await once(process.stdout, "drain");
      written += countLines(chunk);
      bar?.update(Math.min(written, prepared.rows));
    }
    bar?.stop();
    // The last line written is the manifest.
    console.error(`exported ${written - 1} of ${prepared.rows} articles`);
    return 0;
  } finally {
    await container.close();
  }
}

/** `--name value` or `--name=value`; names as the API spells them, `-` or `_` alike; `--data-dir` picks the data. */
export function parseExportArgs(argv: readonly string[]): {
  dataDir: string | undefined;
  params: Record<string, string | string[]>;
} {
  const params: Record<string, string | string[]> = {};
  let dataDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (!word.startsWith("--")) throw new UsageError(`export takes --name value pairs; got ${word}`);
    const eq = word.indexOf("=");
    const name = (eq >= 0 ? word.slice(2, eq) : word.slice(2)).replaceAll("-", "_");
    const value = eq >= 0 ? word.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (name === "data_dir") {
      dataDir = value;
      continue;
    }
    if (API_ONLY.has(name)) throw new UsageError(`--${name} prices an API call; an operator's export is not charged`);
    const previous = params[name];
    params[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return { dataDir, params };
}

function progressBar(total: number): cliProgress.SingleBar | undefined {
  if (!process.stderr.isTTY) return undefined;
  const bar = new cliProgress.SingleBar(
    { format: "export [{bar}] {value}/{total} articles | {eta_formatted} left", stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return bar;
}

function countLines(chunk: Uint8Array): number {
  let n = 0;
  for (let i = chunk.indexOf(NEWLINE); i >= 0; i = chunk.indexOf(NEWLINE, i + 1)) n++;
  return n;
}

const NEWLINE = 10;
