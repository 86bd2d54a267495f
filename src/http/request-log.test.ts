import { describe, expect, it } from "vitest";
import { REDACTED, redactedUrl } from "./request-log.js";

const KEY = "nk_Q2hhbmdlIHRoaXMga2V5IGlmIHlvdSBldmVyIHNlZSBpdA";

describe("redactedUrl", () => {
  it("keeps an ordinary query whole", () => {
    expect(redactedUrl("/search?q=baltimore+shooting&limit=5")).toBe("/search?q=baltimore+shooting&limit=5");
  });

  it("drops a key wherever it is, and any value of a credential-named parameter", () => {
    for (const url of [
      `/search?q=x&api_key=${KEY}`,
      `/search?key=${KEY}`,
      `/search?q=${KEY}`,
      `/doc/${KEY}`,
      `/search?q=${KEY.replace("_", "%5F")}`,
      `/search?access_token=abc&x-api-key=whatever`,
    ]) {
      const line = redactedUrl(url);
      expect(line).not.toContain(KEY.slice(3));
      expect(line).not.toContain("abc");
      expect(line).not.toContain("whatever");
      expect(line).toContain(REDACTED);
    }
  });

  it("drops the literal secrets it is given, plain or percent-encoded", () => {
    const token = "operator token/with+signs";
    expect(redactedUrl(`/admin/keys?t=${encodeURIComponent(token)}`, [token])).toBe(`/admin/keys?t=${REDACTED}`);
  });
});
