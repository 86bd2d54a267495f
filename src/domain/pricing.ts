// Credit prices (spec section 8) as one pure function of a validated call.
// It runs before any work and returns the range the call can cost; the charge
// after running is what it took, held within this range.

export interface CreditRange {
  min: number;
  max: number;
}

export interface PriceLine {
  item: string;
  credits: CreditRange;
}

export interface Price extends CreditRange {
  breakdown: PriceLine[];
}

export type RankingMode = "keyword" | "semantic" | "hybrid";

export type PricedCall =
  | { operation: "search"; mode: RankingMode | "recent"; offset: number }
  | { operation: "top_headlines"; offset: number }
  | { operation: "doc" }
  | { operation: "free" };

const RANKING_PRICE: Record<RankingMode | "recent", number> = { recent: 1, keyword: 1, semantic: 2, hybrid: 3 };

export function priceOf(call: PricedCall): Price {
  const lines: PriceLine[] = [];
  const add = (item: string, min: number, max = min): void => {
    lines.push({ item, credits: { min, max } });
  };
  switch (call.operation) {
    case "search":
      add(call.mode === "recent" ? "browse" : `${call.mode} ranking`, RANKING_PRICE[call.mode]);
      addOffset(add, call.offset);
      break;
    case "top_headlines":
      add("browse", 1);
      addOffset(add, call.offset);
      break;
    case "doc":
      add("article", 1);
      break;
    case "free":
      break;
  }
  return {
    min: lines.reduce((s, l) => s + l.credits.min, 0),
    max: lines.reduce((s, l) => s + l.credits.max, 0),
    breakdown: lines,
  };
}

/** 1 credit per full 1,000 rows skipped on /search and /top-headlines. */
function addOffset(add: (item: string, min: number) => void, offset: number): void {
  const thousands = Math.floor(offset / 1000);
  if (thousands > 0) add(`offset ${offset}`, thousands);
}
