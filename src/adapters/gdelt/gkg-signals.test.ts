import { describe, expect, it } from "vitest";
import { signalInput, themeMentions } from "./gkg-signals.js";

// What signals-v1 reads out of a GKG record: the GCAM variables it uses (and
// only those, whatever their neighbours), and every theme mention.

describe("signalInput", () => {
  it("reads exactly the GCAM variables signals use, telling c4.1 from c4.16 and c41.2", () => {
    const gcam = "wc:250,c1.1:9,c4.1:3,c4.16:7,c4.160:2,c41.2:4,c41.1:8,c5.33:1,c5.3:6,c6.4:12,v10.1:0.5";
    const input = signalInput([], gcam, null);
    expect(Object.fromEntries(input.gcam)).toEqual({ wc: 250, "c4.1": 3, "c4.16": 7, "c41.2": 4, "c5.33": 1, "c6.4": 12 });
  });

  it("keeps the digits of a value up to the first other character, as the whole entry", () => {
    expect(Object.fromEntries(signalInput([], "wc:10,c4.1:3x,c4.3:,c4.4:2.5", null).gcam)).toEqual({
      wc: 10,
      "c4.1": 3,
      "c4.4": 2.5,
    });
  });

  it("counts every theme mention under its upper-case code", () => {
    const mentions = themeMentions("MILITARY,10;TAX_FNCACT_WORKERS,40;MILITARY,95;military,120", "");
    expect(mentions).toEqual(["MILITARY", "TAX_FNCACT_WORKERS", "MILITARY", "military"]);
    expect(Object.fromEntries(signalInput(mentions, "", 100).themes)).toEqual({ MILITARY: 3, TAX_FNCACT_WORKERS: 1 });
    // V1 themes when V2 has none.
    expect(themeMentions("", "STRIKE;ECON_DEBT;")).toEqual(["STRIKE", "ECON_DEBT"]);
  });
});
