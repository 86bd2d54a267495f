import { Type } from "@sinclair/typebox";
import { EXPORT_ROWS_PER_CREDIT, priceOf } from "../../domain/pricing.js";
import { ExportLineSchema } from "../../schemas/export-responses.js";
import { Params, SHARED_FILTERS } from "../../schemas/params.js";
import { prepareExport } from "../../usecases/export/export-articles.js";
import { toExportRequest } from "../requests/export-params.js";
import { defineOperation, usageName, type StreamedBody } from "../operation.js";

// GET /export: the price is the exact row count, so preparing counts the
// matches (the one operation whose preparation reads the index), and the charge is
// settled before the first line: the credit headers go with the response
// headers. Rows a stream never sends (the client left, an index failed) are
// given back when it ends. Not an MCP tool: a tool result is not a stream.

/** Its route, also what its refunds are counted under in the usage counters. */
const ROUTE = { method: "GET", path: "/export" } as const;

export const exportOperation = defineOperation({
  name: "export",
  tool: undefined,
  stream: "ndjson",
  ...ROUTE,
  pathParams: [],
  summary: "Export every matching article",
  description: `Every article the query matches, streamed as NDJSON (\`application/x-ndjson\`): one Article per line (\`view=compact\` for compact ones), newest first then by id, then one last line \`{"manifest": {...}}\` with \`count\` (lines sent), \`total\` (the /search total of the same query), \`sha256\` of the article lines, \`coverage\`, \`partial\`, \`credits_charged\`, \`next_resume_after\` and \`tie_groups_cut\`. \`q\` selects without ranking. Interrupted? Send \`resume_after=<id of the last article received>\` with the same filters: the pieces, concatenated, equal a one-shot export. A timestamp holding more than 5,000 matches serves its first 5,000 (by id), like cursor paging, and is named in \`tie_groups_cut\`. 1 credit per ${EXPORT_ROWS_PER_CREDIT.toLocaleString("en")} rows started (at least 1), counted before the first line: \`estimate=true\` shows it, \`max_credits\` refuses above it; a resumed export pays only for the rows it sends. See /docs/completeness.md.`,
  params: Type.Object({
    q: Type.Optional(Params.q),
    ...SHARED_FILTERS,
    view: Type.Optional(Params.view),
    resume_after: Type.Optional(Params.resume_after),
  }),
  response: ExportLineSchema,
  async prepare(params, caller, deps) {
    const request = toExportRequest(params);
    const prepared = await prepareExport(deps.index, request, caller.plan, deps.clock.now());
    const price = priceOf({ operation: "export", rows: prepared.rows, entityCredits: prepared.entityCredits });
    return {
      price,
      preview: { rows: prepared.rows },
      async execute(meter): Promise<StreamedBody> {
        meter.took(price.max);
        const lines = prepared.lines(price.max, (credits) => deps.credits.refund(caller, credits, usageName(ROUTE)));
        return { lines, written: (chunk) => lines.written(chunk) };
      },
    };
  },
});
