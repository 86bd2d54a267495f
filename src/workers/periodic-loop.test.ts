import { describe, expect, it } from "vitest";
import { PeriodicLoop } from "./periodic-loop.js";

describe("PeriodicLoop", () => {
  it("runs a round at start, then one after each ends, never two at once; stop waits for the round under way", async () => {
    let inRound = 0;
    let most = 0;
    let rounds = 0;
    let release: () => void = () => undefined;
    const loop = new PeriodicLoop(async () => {
      inRound++;
      most = Math.max(most, inRound);
      rounds++;
      if (rounds === 3) await new Promise<void>((resolve) => (release = resolve));
      inRound--;
    }, 1);
    loop.start();
    while (rounds < 3) await new Promise((resolve) => setTimeout(resolve, 2));
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    expect(loop.isStopped).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toBe(false); // the third round is still under way
    release();
    await stopping;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect({ rounds, most, inRound }).toEqual({ rounds: 3, most: 1, inRound: 0 });
  });
});
