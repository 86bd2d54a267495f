// signals-v1: the 25 signals of spec section 2 ("Signals"), one table. Each
// signal is an intensity per 1,000 words of the article: the words GCAM's
// dictionaries counted in the signal's dimensions, plus the mentions of the
// signal's GKG themes, over the article's word count. Industries come from the
// Lexicoder Topic Dictionaries (GCAM c4.*) and GKG themes; business context
// from the Loughran–McDonald financial dictionaries (c6.*) and the Central Bank
// Financial Stability sentiment (c41.*); risk context from GKG themes and the
// LIWC anxiety dictionary. A signal the article does not carry is left out of
// its map (its intensity is 0). Served in docs/signals-and-events.md.

export const SIGNALS_VERSION = "signals-v1";
export const SIGNAL_UNIT = "per_1k_words";

export type SignalClass = "industries" | "business_context" | "risk_context";

export interface SignalDefinition {
  class: SignalClass;
  /** GCAM variables (codebook `Variable`), counted as words matched. */
  gcam: readonly string[];
  /** GKG theme codes, each mention counted; a code ending in `*` is a prefix. */
  themes: readonly string[];
}

const industry = (gcam: string[], themes: string[]): SignalDefinition => ({ class: "industries", gcam, themes });
const business = (gcam: string[], themes: string[] = []): SignalDefinition => ({ class: "business_context", gcam, themes });
const risk = (gcam: string[], themes: string[]): SignalDefinition => ({ class: "risk_context", gcam, themes });

/** In the spec's order. Changing a definition is a new version (`signals-v2`), never an edit of this one. */
export const SIGNALS_V1 = {
  economy: industry(
    ["c4.1"],
    [
      "EPU_ECONOMY*",
      "ECON_TAXATION",
      "ECON_ENTREPRENEURSHIP",
      "ECON_INFLATION",
      "ECON_COST_OF_LIVING",
      "ECON_BUDGET_DEFICIT",
      "ECON_SUBSIDIES",
      "ECON_FOREIGNINVEST",
      "ECON_EMERGINGECON",
      "UNEMPLOYMENT",
    ],
  ),
  healthcare: industry(["c4.3"], ["GENERAL_HEALTH", "MEDICAL", "HEALTH_*"]),
  agriculture: industry(["c4.4", "c4.11"], ["AGRICULTURE", "FOOD_SECURITY"]),
  labor: industry(["c4.6"], ["UNEMPLOYMENT", "STRIKE", "TAX_FNCACT_WORKERS", "TAX_FNCACT_EMPLOYEES"]),
  environment: industry(["c4.9", "c4.22"], ["ENV_*", "NATURAL_DISASTER*"]),
  energy: industry(
    ["c4.10"],
    ["ENV_OIL", "ENV_NATURALGAS", "ENV_COAL", "ENV_NUCLEARPOWER", "ENV_SOLAR", "ENV_WINDPOWER", "ECON_OILPRICE"],
  ),
  transportation: industry(["c4.12"], ["SOC_TRAFFICACCIDENT", "MANMADE_DISASTER_*_ACCIDENT"]),
  real_estate: industry(["c4.15"], ["ECON_HOUSING_PRICES"]),
  finance: industry(["c4.16"], ["ECON_STOCKMARKET", "ECON_INTEREST_RATES", "ECON_CENTRALBANK", "ECON_DEBT", "ECON_CURRENCY*"]),
  defense: industry(["c4.17"], ["MILITARY", "MILITARY_COOPERATION"]),
  science_technology: industry(["c4.18"], ["SCIENCE", "TECH_*"]),
  trade: industry(["c4.19"], ["ECON_FREETRADE", "ECON_TRADE_DISPUTE", "EPU_CATS_TRADE_POLICY"]),
  public_sector: industry(["c4.21", "c4.24"], ["GENERAL_GOVERNMENT", "LEGISLATION"]),
  financial_uncertainty: business(["c6.6"]),
  financial_negative: business(["c6.4"]),
  financial_positive: business(["c6.5"]),
  legal_litigation: business(["c6.1"]),
  // GCAM's Central Bank Financial Stability dictionary (c41.*): only its POSITIVE dimension occurs in the sample, so
  // the stress themes carry this signal in practice.
  financial_stability_stress: business(
    ["c41.2"],
    ["ECON_BANKRUPTCY", "ECON_DEBT", "ECON_BUDGET_DEFICIT", "ECON_CURRENCY_RESERVES"],
  ),
  anxiety: risk(["c5.33"], []),
  conflict: risk([], ["ARMEDCONFLICT", "TERROR", "KILL", "UNREST_*", "WB_2433_CONFLICT_AND_VIOLENCE"]),
  supply_disruption: risk([], ["SHORTAGE", "BLOCKADE", "POWER_OUTAGE", "*_SUPPLY_CHAIN"]),
  cyber_incident: risk([], ["CYBER_ATTACK", "WB_2457_CYBER_CRIME", "TAX_FNCACT_HACKER*", "INTERNET_BLACKOUT"]),
  climate: risk([], ["ENV_CLIMATECHANGE", "NATURAL_DISASTER*"]),
  health_security: risk([], ["HEALTH_PANDEMIC", "TAX_DISEASE*", "MEDICAL_SECURITY"]),
  governance_risk: risk([], ["CORRUPTION", "POLITICAL_TURMOIL", "IMPEACHMENT", "ELECTION_FRAUD", "RESIGNATION"]),
} as const satisfies Record<string, SignalDefinition>;

export type SignalName = keyof typeof SIGNALS_V1;
export const SIGNAL_NAMES = Object.keys(SIGNALS_V1) as SignalName[];

export function isSignalName(name: string): name is SignalName {
  return Object.hasOwn(SIGNALS_V1, name);
}

/** Numeric code of a signal inside an index (its position in the table): stable within signals-v1. */
export function signalCode(name: SignalName): number {
  return SIGNAL_NAMES.indexOf(name);
}

export function signalOfCode(code: number): SignalName | undefined {
  return SIGNAL_NAMES[code];
}

export interface Signals {
  version: string;
  unit: string;
  industries: Record<string, number>;
  business_context: Record<string, number>;
  risk_context: Record<string, number>;
}

/** What an article's signals are computed from: GKG theme mentions, GCAM counts, its word count. */
export interface SignalInput {
  /** Theme code (upper case, as GKG writes it) to its number of mentions. */
  themes: ReadonlyMap<string, number>;
  /** GCAM variable to its value (`wc` is GCAM's word count). */
  gcam: ReadonlyMap<string, number>;
  /** The article's word count (V1.5Tone), used when GCAM gives none. */
  wordCount: number | null;
}

/** Every GCAM variable some signal reads: a parser keeps only these. */
export const SIGNAL_GCAM_VARIABLES: ReadonlySet<string> = new Set([
  ...Object.values(SIGNALS_V1).flatMap((d: SignalDefinition) => d.gcam),
  "wc",
]);

const matchers = new Map<SignalName, (theme: string) => boolean>(
  SIGNAL_NAMES.map((name) => [name, themeMatcher((SIGNALS_V1[name] as SignalDefinition).themes)]),
);

function themeMatcher(patterns: readonly string[]): (theme: string) => boolean {
  if (patterns.length === 0) return () => false;
  const source = patterns
    .map((p) =>
      p
        .split("*")
        .map((part) => part.replace(/[^A-Z0-9_]/g, ""))
        .join("[A-Z0-9_]*"),
    )
    .join("|");
  const re = new RegExp(`^(?:${source})$`);
  return (theme) => re.test(theme);
}

/** For each GCAM variable some signal reads, the codes of the signals reading it. */
const SIGNALS_OF_VARIABLE = new Map<string, number[]>(
  [...SIGNAL_GCAM_VARIABLES].map((variable) => [
    variable,
    SIGNAL_NAMES.flatMap((name, code) => ((SIGNALS_V1[name] as SignalDefinition).gcam.includes(variable) ? [code] : [])),
  ]),
);

/** The article's signals; undefined when it has no word count to divide by. */
export function computeSignals(input: SignalInput): Signals | undefined {
  const words = input.gcam.get("wc") ?? input.wordCount ?? 0;
  if (!(words > 0)) return undefined;
  // Words matched per signal code: GCAM counts first, then theme mentions (whole numbers, so the order is moot).
  const hits = new Float64Array(SIGNAL_NAMES.length);
  for (const [variable, value] of input.gcam) {
    for (const code of SIGNALS_OF_VARIABLE.get(variable) ?? []) hits[code] = (hits[code] as number) + value;
  }
  for (const [theme, mentions] of input.themes) {
    for (const code of signalsOf(theme)) hits[code] = (hits[code] as number) + mentions;
  }
  const out: Signals = { version: SIGNALS_VERSION, unit: SIGNAL_UNIT, industries: {}, business_context: {}, risk_context: {} };
  for (let code = 0; code < SIGNAL_NAMES.length; code++) {
    const count = hits[code] as number;
    if (count > 0) {
      const name = SIGNAL_NAMES[code] as SignalName;
      out[SIGNALS_V1[name].class][name] = Math.round((count * 100_000) / words) / 100;
    }
  }
  return out;
}

/** Codes of the signals whose themes include each theme code seen so far: GKG has some tens of thousands of codes. */
const signalsOfTheme = new Map<string, number[]>();

function signalsOf(theme: string): number[] {
  let codes = signalsOfTheme.get(theme);
  if (codes === undefined) {
    codes = SIGNAL_NAMES.flatMap((name, code) => ((matchers.get(name) as (theme: string) => boolean)(theme) ? [code] : []));
    if (signalsOfTheme.size < 100_000) signalsOfTheme.set(theme, codes);
  }
  return codes;
}

/** Every signal an article carries, by name, whatever its class. */
export function signalValues(signals: Signals | undefined): Array<[SignalName, number]> {
  if (signals === undefined) return [];
  const out: Array<[SignalName, number]> = [];
  for (const map of [signals.industries, signals.business_context, signals.risk_context]) {
    for (const [name, value] of Object.entries(map)) if (isSignalName(name) && value > 0) out.push([name, value]);
  }
  return out;
}
