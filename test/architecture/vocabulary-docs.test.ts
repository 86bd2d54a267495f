import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES, EVENTS_V1 } from "../../src/domain/vocabularies/events-v1.js";
import { SIGNAL_NAMES, SIGNALS_V1 } from "../../src/domain/vocabularies/signals-v1.js";

// The served tables of /docs/signals-and-events.md say what the code does:
// each signal's row names its class, every GCAM dimension and every theme of
// its definition; each event class's row names every theme.

const doc = readFileSync(new URL("../../docs/signals-and-events.md", import.meta.url), "utf8");

function rowOf(name: string, after: string): string {
  const section = doc.slice(doc.indexOf(after));
  const row = section.split("\n").find((line) => line.startsWith(`| \`${name}\` | `) && line.split("|").length > 5);
  expect(row, name).toBeDefined();
  return row as string;
}

describe("docs/signals-and-events.md", () => {
  it("lists every signal with its class, GCAM dimensions and themes", () => {
    for (const name of SIGNAL_NAMES) {
      const definition = SIGNALS_V1[name];
      const row = rowOf(name, "**Definitions.**");
      expect(row).toContain(`| ${definition.class} |`);
      for (const variable of definition.gcam) expect(row, name).toContain(`\`${variable}\``);
      for (const theme of definition.themes) expect(row, name).toContain(`\`${theme}\``);
    }
  });

  it("lists every event class with its themes", () => {
    for (const name of EVENT_TYPES) {
      const row = rowOf(name, "## events-v1");
      for (const theme of EVENTS_V1[name].themes) expect(row, name).toContain(`\`${theme}\``);
    }
  });
});
