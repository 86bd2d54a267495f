import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

describe("the follower's settings", () => {
  it("default to a 60 s poll, 3 attempts and an hour before a late file is missing", () => {
    expect(loadConfig({})).toMatchObject({ followPollSeconds: 60, followAttempts: 3, followMissingAfterSeconds: 3600 });
  });

  it("are read from the environment", () => {
    const config = loadConfig({
      NEWSINDEX_FOLLOW_POLL_SECONDS: "2",
      NEWSINDEX_FOLLOW_ATTEMPTS: "5",
      NEWSINDEX_FOLLOW_MISSING_AFTER_SECONDS: "0",
    });
    expect(config).toMatchObject({ followPollSeconds: 2, followAttempts: 5, followMissingAfterSeconds: 0 });
  });

  it("refuse a poll interval that is not a whole number of seconds from 1, naming the setting", () => {
    for (const bad of ["0", "1.5", "soon", "-3"]) {
      expect(() => loadConfig({ NEWSINDEX_FOLLOW_POLL_SECONDS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ NEWSINDEX_FOLLOW_POLL_SECONDS: bad })).toThrow(/followPollSeconds/);
    }
    expect(() => loadConfig({ NEWSINDEX_FOLLOW_ATTEMPTS: "0" })).toThrow(/followAttempts/);
  });
});
