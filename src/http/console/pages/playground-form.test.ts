import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../../../app/registry.js";
import { Params } from "../../../schemas/params.js";
import { fieldControl, playgroundFields, playgroundOperations } from "./playground-form.js";

describe("the playground's form", () => {
  it("runs /search and /stories, with the fields both declare, labelled Query and Mode first", () => {
    expect(playgroundOperations(OPERATIONS).map((op) => op.path)).toEqual(["/search", "/stories"]);
    const fields = playgroundFields(OPERATIONS);
    expect(fields.slice(0, 2).map((f) => f.label)).toEqual(["Query", "Mode"]);
    expect(fields.map((f) => f.name)).toEqual(expect.arrayContaining(["language", "publisher_country", "from", "to", "limit"]));
    for (const f of fields) expect(f.schema).toBe(OPERATIONS.find((op) => op.path === "/search")?.params.properties[f.name]);
  });

  it("draws each control from its parameter's declaration", () => {
    const fields = new Map(playgroundFields(OPERATIONS).map((f) => [f.name, f]));
    const mode = fieldControl(fields.get("mode")!, undefined).text;
    for (const choice of Params.mode.anyOf.map((o) => o.const)) expect(mode).toContain(`>${choice}</option>`);
    expect(mode).toMatch(/selected>keyword</);
    const limit = fieldControl(fields.get("limit")!, "7").text;
    expect(limit).toMatch(/type="number"/);
    expect(limit).toContain(`min="${Params.limit.minimum}"`);
    expect(limit).toContain(`max="${Params.limit.maximum}"`);
    expect(limit).toContain('value="7"');
    const query = fieldControl(fields.get("q")!, `"a" <b>`).text;
    expect(query).toContain(`maxlength="${Params.q.maxLength}"`);
    expect(query).toContain('value="&quot;a&quot; &lt;b&gt;"');
    expect(query).toContain('<label for="param-q">Query</label>');
  });
});
