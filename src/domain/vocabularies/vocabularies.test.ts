import { describe, expect, it } from "vitest";
import { EVENT_TYPES, eventTypesOf } from "./events-v1.js";
import { SIGNAL_NAMES, SIGNALS_V1, computeSignals, signalValues } from "./signals-v1.js";

describe("signals-v1", () => {
  it("names the spec's 25 signals: 13 industries, 5 business context, 7 risk context", () => {
    expect(SIGNAL_NAMES).toHaveLength(25);
    const classes = Object.values(SIGNALS_V1).map((d) => d.class);
    expect(classes.filter((c) => c === "industries")).toHaveLength(13);
    expect(classes.filter((c) => c === "business_context")).toHaveLength(5);
    expect(classes.filter((c) => c === "risk_context")).toHaveLength(7);
  });

  it("is GCAM words plus theme mentions per 1,000 words, absent signals left out", () => {
    const signals = computeSignals({
      themes: new Map([
        ["ECON_STOCKMARKET", 2],
        ["ARMEDCONFLICT", 1],
        ["UNREST_BELLIGERENT", 1],
      ]),
      gcam: new Map([
        ["wc", 400],
        ["c4.16", 3],
        ["c6.6", 1],
      ]),
      wordCount: 999,
    });
    expect(signals).toEqual({
      version: "signals-v1",
      unit: "per_1k_words",
      industries: { finance: 12.5 },
      business_context: { financial_uncertainty: 2.5 },
      risk_context: { conflict: 5 },
    });
    expect(signalValues(signals)).toEqual([
      ["finance", 12.5],
      ["financial_uncertainty", 2.5],
      ["conflict", 5],
    ]);
  });

  it("falls back on the tone word count, and gives none without any", () => {
    const themes = new Map([["MILITARY", 1]]);
    expect(computeSignals({ themes, gcam: new Map(), wordCount: 200 })?.industries).toEqual({ defense: 5 });
    expect(computeSignals({ themes, gcam: new Map(), wordCount: null })).toBeUndefined();
  });
});

describe("events-v1", () => {
  it("names the spec's 17 classes", () => {
    expect(EVENT_TYPES).toHaveLength(17);
  });

  it("needs the headline where the theme alone is too broad", () => {
    expect(eventTypesOf(["strike"], "Junior doctors announce a strike", null)).toEqual(["labor_strike"]);
    expect(eventTypesOf(["strike"], "Weather for the weekend", null)).toEqual([]);
    expect(eventTypesOf([], "REPT's $1 Billion IPO Leads Wave", null)).toEqual(["ipo"]);
  });

  it("reads the URL's words when there is no headline", () => {
    const url = "http://www.sfgate.com/business/article/Swiss-prosecutors-probe-HSBC-subsidiary-for-money-6088060.php";
    expect(eventTypesOf(["econ_moneylaundering"], null, url)).toEqual(["money_laundering"]);
    expect(eventTypesOf(["econ_moneylaundering"], null, "http://x.org/weather")).toEqual([]);
  });
});
