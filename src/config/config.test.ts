import { describe, expect, it } from "vitest";
import { availableParallelism } from "node:os";
import { ConfigError, loadConfig } from "./config.js";

describe("watch settings", () => {
  it("keeps watches on by default and reads NEWSINDEX_WATCHES", () => {
    expect(loadConfig({}).watches).toBe(true);
    expect(loadConfig({ NEWSINDEX_WATCHES: "off" }).watches).toBe(false);
    expect(loadConfig({ NEWSINDEX_WATCHES: "on" }).watches).toBe(true);
    expect(() => loadConfig({ NEWSINDEX_WATCHES: "maybe" })).toThrow(ConfigError);
  });

  it("leaves the testing-only webhook trust off, and takes its two settings together or not at all", () => {
    const config = loadConfig({});
    expect(config.webhookTestHost).toBeUndefined();
    expect(config.webhookTestCaFile).toBeUndefined();
    expect(() => loadConfig({ NEWSINDEX_WEBHOOK_TEST_HOST: "localhost" })).toThrow(/together/);
    expect(loadConfig({ NEWSINDEX_WEBHOOK_TEST_HOST: "localhost", NEWSINDEX_WEBHOOK_TEST_CA_FILE: "/tmp/ca.pem" })).toMatchObject(
      {
        webhookTestHost: "localhost",
        webhookTestCaFile: "/tmp/ca.pem",
      },
    );
  });
});

describe("read threads", () => {
  it("leaves the heavy lane's width to the index unless NEWSINDEX_READ_THREADS sets it, from 1 to 64", () => {
    expect(loadConfig({}).readThreads).toBeUndefined();
    expect(loadConfig({ NEWSINDEX_READ_THREADS: "1" }).readThreads).toBe(1);
    expect(loadConfig({}, { readThreads: 3 }).readThreads).toBe(3);
    for (const bad of ["0", "65", "1.5", "two"]) {
      expect(() => loadConfig({ NEWSINDEX_READ_THREADS: bad }), bad).toThrow(/readThreads/);
    }
  });
});

describe("embedding threads", () => {
  it("embeds with as many model sessions as the machine has cores unless NEWSINDEX_EMBEDDING_THREADS sets it", () => {
    expect(loadConfig({}).embeddingThreads).toBe(availableParallelism());
    expect(loadConfig({ NEWSINDEX_EMBEDDING_THREADS: "1" }).embeddingThreads).toBe(1);
    expect(loadConfig({}, { embeddingThreads: 3 }).embeddingThreads).toBe(3);
    for (const bad of ["0", "65", "1.5", "two"]) {
      expect(() => loadConfig({ NEWSINDEX_EMBEDDING_THREADS: bad }), bad).toThrow(/embeddingThreads/);
    }
  });
});

describe("drain notice", () => {
  it("fails readiness for 7 s before a shutdown unless NEWSINDEX_DRAIN_SECONDS sets it, 0 stopping at once", () => {
    expect(loadConfig({}).drainSeconds).toBe(7);
    expect(loadConfig({ NEWSINDEX_DRAIN_SECONDS: "0" }).drainSeconds).toBe(0);
    expect(loadConfig({ NEWSINDEX_DRAIN_SECONDS: "20" }).drainSeconds).toBe(20);
    for (const bad of ["-1", "601", "2.5", "soon"]) {
      expect(() => loadConfig({ NEWSINDEX_DRAIN_SECONDS: bad }), bad).toThrow(/drainSeconds/);
    }
  });
});

describe("OpenSearch settings", () => {
  it("reads one or more node URLs, comma-separated, and a name prefix defaulting to newsindex", () => {
    expect(loadConfig({}).opensearchUrls).toBeUndefined();
    expect(loadConfig({}).opensearchPrefix).toBe("newsindex");
    const config = loadConfig({
      NEWSINDEX_OPENSEARCH_URL: "http://10.0.0.1:9200/, https://search.example:9200",
      NEWSINDEX_OPENSEARCH_PREFIX: "news_eu",
    });
    expect(config.opensearchUrls).toEqual(["http://10.0.0.1:9200", "https://search.example:9200"]);
    expect(config.opensearchPrefix).toBe("news_eu");
  });

  it("refuses a URL that is not http(s) and a prefix OpenSearch would not take as an index name", () => {
    for (const bad of ["localhost:9200", "ftp://host:9200", "http://", "http://a:1,file:///x"]) {
      expect(() => loadConfig({ NEWSINDEX_OPENSEARCH_URL: bad }), bad).toThrow(/opensearchUrls/);
    }
    for (const bad of ["News", "_index", "-x", "a b", "a*", "x".repeat(41)]) {
      expect(() => loadConfig({ NEWSINDEX_OPENSEARCH_PREFIX: bad }), bad).toThrow(/opensearchPrefix/);
    }
  });
});

describe("OpenSearch shards and replicas", () => {
  it("default to one shard without replicas (a single node), read from the environment, refusing what is no count", () => {
    expect(loadConfig({})).toMatchObject({ opensearchShards: 1, opensearchReplicas: 0 });
    expect(loadConfig({ NEWSINDEX_OPENSEARCH_SHARDS: "3", NEWSINDEX_OPENSEARCH_REPLICAS: "1" })).toMatchObject({
      opensearchShards: 3,
      opensearchReplicas: 1,
    });
    for (const bad of ["0", "-1", "1.5", "three", "65"]) {
      expect(() => loadConfig({ NEWSINDEX_OPENSEARCH_SHARDS: bad }), bad).toThrow(/opensearchShards/);
    }
    expect(() => loadConfig({ NEWSINDEX_OPENSEARCH_REPLICAS: "one" })).toThrow(/opensearchReplicas/);
  });
});

describe("console settings", () => {
  it("serves the console on 8081 unless NEWSINDEX_CONSOLE_PORT names another port or off", () => {
    expect(loadConfig({}).consolePort).toBe(8081);
    expect(loadConfig({ NEWSINDEX_CONSOLE_PORT: "9090" }).consolePort).toBe(9090);
    expect(loadConfig({ NEWSINDEX_CONSOLE_PORT: "OFF" }).consolePort).toBe("off");
    expect(() => loadConfig({ NEWSINDEX_CONSOLE_PORT: "console" })).toThrow(ConfigError);
    expect(() => loadConfig({ NEWSINDEX_CONSOLE_PORT: "70000" })).toThrow(/consolePort/);
  });

  it("trusts a proxy's protocol only when NEWSINDEX_TRUST_PROXY is on", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ NEWSINDEX_TRUST_PROXY: "on" }).trustProxy).toBe(true);
    expect(() => loadConfig({ NEWSINDEX_TRUST_PROXY: "maybe" })).toThrow(ConfigError);
  });
});

describe("index engine", () => {
  it("is the embedded index unless NEWSINDEX_INDEX names opensearch; anything else is refused", () => {
    expect(loadConfig({}).index).toBe("sqlite");
    expect(loadConfig({ NEWSINDEX_INDEX: "sqlite" }).index).toBe("sqlite");
    const node = { NEWSINDEX_OPENSEARCH_URL: "http://127.0.0.1:9200" };
    expect(loadConfig({ NEWSINDEX_INDEX: "opensearch", ...node }).index).toBe("opensearch");
    expect(loadConfig(node, { index: "opensearch" }).index).toBe("opensearch");
    // The scaled shape without a node to reach is refused when the settings are read, not at the first query.
    expect(() => loadConfig({ NEWSINDEX_INDEX: "opensearch" })).toThrow(/NEWSINDEX_OPENSEARCH_URL/);
    for (const bad of ["elastic", "SQLite", "postgres"]) {
      expect(() => loadConfig({ NEWSINDEX_INDEX: bad }), bad).toThrow(/index/);
    }
  });
});
