import { expect } from "vitest";
import { json } from "./test-server.js";

/** The spec's error body (section 7), with whatever extras a refusal carries. */
export interface ErrorBody {
  error: string;
  code: string;
  detail: string;
  [extra: string]: unknown;
}

/** Asserts a refusal: its status, a JSON body with the spec's code, a label and a real detail. */
export async function expectError(response: Response, status: number, code: string): Promise<ErrorBody> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = await json<ErrorBody>(response);
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe("string");
  expect(body.detail.length).toBeGreaterThan(10);
  return body;
}
