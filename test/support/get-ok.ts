import { expect } from "vitest";
import { json, type TestServer } from "./test-server.js";

/** GETs `path` with the server's key, asserts 200 (the failure names the path) and parses the JSON body. */
export async function getOk<T>(server: TestServer, path: string): Promise<T> {
  const response = await server.get(path);
  expect(response.status, path).toBe(200);
  return json<T>(response);
}
