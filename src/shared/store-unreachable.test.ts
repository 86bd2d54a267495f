import { describe, expect, it } from "vitest";
import { isStoreUnreachable, storeUnreachableError } from "./store-unreachable.js";

describe("an unreachable control store", () => {
  it("is told by socket codes, PostgreSQL's shutdown and connection codes, and node-postgres's lost-connection messages", () => {
    for (const code of ["ECONNREFUSED", "ECONNRESET", "57P01", "57P03", "08006"]) {
      expect(isStoreUnreachable(Object.assign(new Error("x"), { code })), code).toBe(true);
    }
    expect(isStoreUnreachable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isStoreUnreachable(new Error("Client has encountered a connection error and is not queryable"))).toBe(true);
  });

  it("is not a query the store refused, nor any other failure", () => {
    for (const code of ["23505", "42P01", "53100", "SQLITE_BUSY"]) {
      expect(isStoreUnreachable(Object.assign(new Error("x"), { code })), code).toBe(false);
    }
    expect(isStoreUnreachable(new TypeError("undefined is not a function"))).toBe(false);
    expect(isStoreUnreachable("ECONNREFUSED")).toBe(false);
  });

  it("answers 503 upstream_unavailable with a retry delay", () => {
    const error = storeUnreachableError();
    expect(error.status).toBe(503);
    expect(error.toBody()).toMatchObject({ code: "upstream_unavailable" });
    expect(error.retryAfterSecs).toBeGreaterThan(0);
  });
});
