import { describe, expect, it } from "vitest";
import { headlineKey } from "./headline-key.js";
import { mostSharedHeadlines, RepresentativeChoice } from "./representative.js";

// The member standing for a story, from members offered earliest first.

type Member = { id: string; title: string | null; source: string | null };

function choose(members: Member[]): { chosen: Member | undefined; first: Member | undefined; read: number } {
  const tallies = new Map<string, number>();
  for (const m of members) {
    const key = headlineKey(m.title, m.source);
    if (key !== null) tallies.set(key, (tallies.get(key) ?? 0) + 1);
  }
  const choice = new RepresentativeChoice<Member>(mostSharedHeadlines(tallies));
  let read = 0;
  for (const m of members) {
    read++;
    if (choice.offer(m)) break;
  }
  return { chosen: choice.chosen, first: choice.first, read };
}

describe("the representative of a story", () => {
  it("is the earliest member carrying the most shared headline, not the earliest member", () => {
    const members = [
      { id: "a", title: "Storm hits the coast overnight", source: "one.com" },
      { id: "b", title: "Mayor resigns after vote", source: "two.com" },
      { id: "c", title: "Mayor resigns after vote", source: "three.com" },
      { id: "d", title: "Mayor resigns after vote", source: "four.com" },
    ];
    const { chosen, first, read } = choose(members);
    expect(chosen?.id).toBe("b");
    expect(first?.id).toBe("a");
    // Members after the representative need not be read.
    expect(read).toBe(2);
  });

  it("is the earliest member when no headline is shared more than another", () => {
    const { chosen } = choose([
      { id: "a", title: "First headline about the floods", source: "one.com" },
      { id: "b", title: "Second headline about the dam", source: "two.com" },
    ]);
    expect(chosen?.id).toBe("a");
  });

  it("is the earliest titled member when the earliest has no title, and the earliest member when none has one", () => {
    const titled = choose([
      { id: "a", title: null, source: "one.com" },
      { id: "b", title: "Only headline", source: "two.com" },
    ]);
    expect(titled.chosen?.id).toBe("b");
    expect(titled.first?.id).toBe("a");
    const untitled = choose([
      { id: "a", title: null, source: "one.com" },
      { id: "b", title: null, source: "two.com" },
    ]);
    expect(untitled.chosen?.id).toBe("a");
  });

  it("has none before any member is offered", () => {
    const choice = new RepresentativeChoice<Member>(new Set());
    expect(choice.chosen).toBeUndefined();
    expect(choice.first).toBeUndefined();
  });
});
