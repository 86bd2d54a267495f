// events-v1: the 17 event classes of spec section 4 (`event_type`), one table
// from GKG theme codes (LOOKUP-GKGTHEMES) to classes. Where a theme alone is
// too broad (GDELT tags a company's resignation and a minister's alike), the
// class also needs a word of the headline; where GDELT has no theme for the
// event, the headline alone decides. Precision read on the bundled sample is in
// docs/signals-and-events.md. Changing a rule is a new version (`events-v2`).

export const EVENTS_VERSION = "events-v1";

export interface EventClassRule {
  /** Any of these themes (a code ending in `*` is a prefix) marks the class... */
  themes: readonly string[];
  /** ...when the headline also matches this, if given. */
  themeNeedsTitle?: RegExp;
  /** A headline matching this marks the class on its own. */
  title?: RegExp;
}

/** In the spec's order. */
export const EVENTS_V1 = {
  bankruptcy: {
    themes: ["ECON_BANKRUPTCY"],
    themeNeedsTitle: /bankrupt|insolven|chapter 11|liquidat|receivership|administration|faillite|quiebra|insolvenz/i,
    title: /\b(bankrupt(cy|cies)?|chapter 11|insolven(t|cy))\b/i,
  },
  earnings_report: {
    themes: ["ECON_EARNINGSREPORT"],
    themeNeedsTitle: /earnings|results|profit|revenue|quarter|guidance|\bq[1-4]\b/i,
    title:
      /\b(quarterly (results|earnings|profit|loss)|(first|second|third|fourth)[- ]quarter (results|earnings|profit|loss)|q[1-4] (results|earnings)|earnings (beat|miss|report))\b/i,
  },
  ipo: {
    themes: ["ECON_IPO"],
    themeNeedsTitle: /\bipo\b|public offering|listing|debut|goes public/i,
    title: /\b(IPO|initial public offering)\b/,
  },
  cyber_attack: {
    themes: ["CYBER_ATTACK", "WB_2457_CYBER_CRIME", "SOC_RANSOM"],
    themeNeedsTitle: /cyber|hack|ransomware|breach|malware|espionage|dark web|phishing|ddos/i,
    title: /\b(cyber ?attacks?|ransomware|hacked|data breach|ddos)\b/i,
  },
  outage: {
    themes: [
      "POWER_OUTAGE",
      "MANMADE_DISASTER_POWER_OUTAGE*",
      "MANMADE_DISASTER_POWER_BLACKOUT",
      "INTERNET_BLACKOUT",
      "PHONE_OUTAGE",
    ],
    themeNeedsTitle: /outage|blackout|power cut|without power|power (is )?restored|grid failure|apag[oó]n|panne/i,
    title: /\b(power outages?|blackouts?|power cuts?)\b/i,
  },
  industrial_accident: {
    themes: ["EMERG_INDUSTRIALACCIDENT", "MANMADE_DISASTER_INDUSTRIAL_*", "MANMADE_DISASTER_MINING_ACCIDENT"],
    themeNeedsTitle: /explosion|blast|fire|collapse|leak|spill|accident|killed|injured/i,
    title: /\b(factory|plant|mine|refinery|chemical) (explosion|blast|fire|collapse|leak)\b/i,
  },
  sanctions: { themes: ["SANCTIONS"], themeNeedsTitle: /sanction/i },
  trade_dispute: {
    themes: ["ECON_TRADE_DISPUTE"],
    themeNeedsTitle: /trade|tariff|dumping|export|import/i,
    title: /\b(trade war|tariffs?|anti-?dumping)\b/i,
  },
  boycott: { themes: ["ECON_BOYCOTT"], themeNeedsTitle: /boycott/i },
  nationalization: { themes: ["ECON_NATIONALIZE"], themeNeedsTitle: /nationali[sz]/i },
  privatization: { themes: ["PRIVATIZATION"], themeNeedsTitle: /privati[sz]/i },
  money_laundering: {
    themes: ["ECON_MONEYLAUNDERING"],
    themeNeedsTitle: /launder|\bmoney\b|blanchi|lavado/i,
    title: /\bmoney[- ]launder/i,
  },
  executive_change: {
    themes: ["RESIGNATION", "TAX_FNCACT_CEO", "TAX_FNCACT_CHIEF_EXECUTIVE*"],
    themeNeedsTitle:
      /\b(CEO|chief executive|chairman|chairwoman|CFO)\b.*\b(resign|steps? down|quits?|appoint|named|ousted|replace|succeed)|\b(resign|steps? down|quits?|appoints?|names|ousted|replaces?)\b.*\b(CEO|chief executive|chairman|chairwoman|CFO)\b/i,
  },
  factory_closure: {
    themes: ["CLOSURE", "TAX_FNCACT_FACTORY_WORKER*"],
    themeNeedsTitle:
      /\b(factory|plant|mill|smelter|refinery)\b.*\b(clos|shut)|\b(clos|shut)\w*\b.*\b(factory|plant|mill|smelter|refinery)\b/i,
  },
  supply_shortage: {
    themes: ["SHORTAGE"],
    themeNeedsTitle: /shortages?|scarcity|run(s|ning)? out of|in short supply|p[eé]nurie|escasez/i,
  },
  labor_strike: {
    themes: ["STRIKE"],
    themeNeedsTitle: /\b(strikes?|strikers|walk-?outs?|industrial action|picket|gr[eè]ve|huelga)/i,
  },
  antitrust_action: {
    themes: ["WB_2101_ANTITRUST", "ECON_MONOPOLY"],
    themeNeedsTitle: /antitrust|anti-trust|competition|monopol|cartel/i,
    title: /\b(antitrust|anti-trust)\b/i,
  },
} as const satisfies Record<string, EventClassRule>;

export type EventType = keyof typeof EVENTS_V1;
export const EVENT_TYPES = Object.keys(EVENTS_V1) as EventType[];

export function isEventType(name: string): name is EventType {
  return Object.hasOwn(EVENTS_V1, name);
}

const themeTests = new Map<EventType, RegExp>(
  EVENT_TYPES.map((name) => {
    const patterns = (EVENTS_V1[name] as EventClassRule).themes;
    const source = patterns
      .map((p) =>
        p
          .split("*")
          .map((part) => part.replace(/[^a-z0-9_]/gi, ""))
          .join("[a-z0-9_]*"),
      )
      .join("|");
    return [name, new RegExp(`^(?:${source})$`, "i")];
  }),
);

/** Classes whose themes include each theme code seen so far (any case). */
const classesOfTheme = new Map<string, EventType[]>();

function classesOf(topic: string): EventType[] {
  let names = classesOfTheme.get(topic);
  if (names === undefined) {
    names = EVENT_TYPES.filter((name) => (themeTests.get(name) as RegExp).test(topic));
    if (classesOfTheme.size < 100_000) classesOfTheme.set(topic, names);
  }
  return names;
}

/**
 * The event classes of an article from its topics (GKG theme codes, any case)
 * and headline; [] when none. Without a headline the words of its URL's path
 * stand in (GDELT's older records carry no title).
 */
export function eventTypesOf(topics: readonly string[], title: string | null, url: string | null): EventType[] {
  const headline = title ?? urlWords(url);
  const out: EventType[] = [];
  const themed = new Set<EventType>();
  for (const topic of topics) for (const name of classesOf(topic)) themed.add(name);
  for (const name of EVENT_TYPES) {
    const rule: EventClassRule = EVENTS_V1[name];
    if (
      (themed.has(name) && (rule.themeNeedsTitle === undefined || rule.themeNeedsTitle.test(headline))) ||
      rule.title?.test(headline)
    ) {
      out.push(name);
    }
  }
  return out;
}

/** `https://x.com/2015/02/swiss-prosecutors-probe-hsbc.php` -> `2015 02 swiss prosecutors probe hsbc php`. */
function urlWords(url: string | null): string {
  if (url === null) return "";
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, "");
  return path.replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}
