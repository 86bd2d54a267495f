import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { priceOf } from "../domain/pricing.js";
import { jsonBody, STORY_QUERY } from "../schemas/params.js";
import { ApiError } from "../shared/api-error.js";
import { listStoriesOperation } from "./operations/list-stories.js";
import { defineOperation } from "./operation.js";
import { validateBody, validateParams } from "./validate-params.js";

// A JSON body is checked by the same declarations and the same validator as
// query parameters. The body here is shaped like a watch's (spec 02, POST
// /watches): the /stories query fields plus fields of its own.

const createWithQuery = defineOperation({
  name: "createWithQuery",
  tool: "create_with_query",
  method: "POST",
  path: "/queries",
  pathParams: [],
  summary: "s",
  description: "s",
  sideEffects: true,
  status: 201,
  params: Type.Object({}, { additionalProperties: false }),
  body: jsonBody({
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    interval_minutes: Type.Integer({ minimum: 5, maximum: 1440 }),
    ...STORY_QUERY,
  }),
  response: Type.Object({}),
  prepare: () => ({ price: priceOf({ operation: "free" }), execute: async () => ({}) }),
});

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("validateBody", () => {
  it("returns the body's fields, typed, with the /stories query among them", () => {
    const values = validateBody(createWithQuery, { interval_minutes: 60, q: "flood", language: "eng", source_type: "web" });
    expect(values).toEqual({ interval_minutes: 60, q: "flood", language: "eng", source_type: "web", mode: "keyword" });
  });

  it("refuses a query field's bad value exactly as /stories refuses it in the query string", () => {
    for (const [name, value] of [
      ["language", "en"],
      ["publisher_country", "USA"],
      ["mentioned_date", "2024-1-1"],
      ["q", ""],
    ] as const) {
      const inBody = refusal(() => validateBody(createWithQuery, { interval_minutes: 60, [name]: value }));
      const inQuery = refusal(() =>
        validateParams(listStoriesOperation, { [name]: value === "" ? "x".repeat(1001) : value }, "query"),
      );
      expect(inBody.code, name).toBe("invalid_parameter");
      expect(inBody.extras, name).toEqual({ parameter: name });
      // Same declaration, same phrase for what is expected ("q" differs only in the value quoted).
      expect(inBody.detail.split(": expected ")[1], name).toBe(inQuery.detail.split(": expected ")[1]);
    }
  });

  it("refuses fields of /stories that are not part of the body's query as unknown_parameter", () => {
    for (const name of ["from", "to", "offset", "limit", "sort"]) {
      const error = refusal(() => validateBody(createWithQuery, { interval_minutes: 60, [name]: "1" }));
      expect(error.code, name).toBe("unknown_parameter");
      expect(error.extras, name).toMatchObject({ parameter: name });
      expect(error.detail).toContain("The body of POST /queries does not take the field");
    }
  });

  it("reads JSON values as they are: no text converted, enum values whatever their case as in a query string, no empty value", () => {
    expect(validateParams(listStoriesOperation, { mode: "KEYWORD", limit: "5" }, "query")).toMatchObject({
      mode: "keyword",
      limit: 5,
    });
    expect(validateBody(createWithQuery, { interval_minutes: 60, mode: "KEYWORD" })).toMatchObject({ mode: "keyword" });
    for (const body of [
      { interval_minutes: "60" },
      { interval_minutes: 60, source: "" },
      { interval_minutes: 60, language: ["eng", "fra"] },
      { interval_minutes: 60, label: null },
    ]) {
      expect(refusal(() => validateBody(createWithQuery, body)).code, JSON.stringify(body)).toBe("invalid_parameter");
    }
  });

  it("requires the body's required fields and a JSON object", () => {
    expect(refusal(() => validateBody(createWithQuery, { q: "flood" })).extras).toEqual({ parameter: "interval_minutes" });
    for (const body of [undefined, null, [], "q=flood"]) {
      expect(refusal(() => validateBody(createWithQuery, body)).code).toBe("invalid_parameter");
    }
  });

  it("takes no body on an operation that declares none", () => {
    expect(validateBody(listStoriesOperation, undefined)).toEqual({});
    expect(refusal(() => validateBody(listStoriesOperation, { q: "flood" })).code).toBe("invalid_parameter");
  });
});

describe("defineOperation", () => {
  const base = { ...createWithQuery, body: undefined, sideEffects: false, status: 200 as const };

  it("refuses a GET with side effects, a body on anything but a POST, and a name both parameter and body field", () => {
    expect(() => defineOperation({ ...base, method: "GET", sideEffects: true })).toThrow(/GET has no side effects/);
    expect(() => defineOperation({ ...base, method: "DELETE", sideEffects: true, body: jsonBody({}) })).toThrow(/only a POST/);
    expect(() =>
      defineOperation({
        ...base,
        method: "POST",
        params: Type.Object({ q: Type.Optional(Type.String()) }),
        body: jsonBody(STORY_QUERY),
      }),
    ).toThrow(/q both a parameter and a body field/);
  });
});
