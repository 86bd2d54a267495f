// The judged query set of `npm run eval:search`: 40 queries over the bundled
// GDELT sample (data/gkg/, 1,360 real articles), 10 of each kind of need. How
// it was judged: eval/search/JUDGING.md. Each query carries its relevance
// rule, written from reading the sample's titles and entity lists before any
// ranking was run: grade 2 = about what the query asks for, grade 1 =
// related (same event from another angle, or the entity named in passing).
// Rules read the article as the API returns it (title, language, persons,
// organizations); `ids` name non-English articles judged one by one.

export type Kind = "keyword" | "paraphrase" | "entity" | "cross_lingual";

export interface JudgedArticle {
  id: string;
  title: string | null;
  language: string | null;
  persons: string[];
  organizations: string[];
}

export interface JudgedQuery {
  kind: Kind;
  q: string;
  /** 2, 1 or 0 for one article. */
  grade(article: JudgedArticle): number;
}

const title = (a: JudgedArticle): string => a.title ?? "";
const has = (re: RegExp) => (a: JudgedArticle): boolean => re.test(title(a));
const person = (name: string) => (a: JudgedArticle): boolean => a.persons.includes(name);
const org = (name: string) => (a: JudgedArticle): boolean => a.organizations.includes(name);
const oneOf = (ids: string[]) => (a: JudgedArticle): boolean => ids.includes(a.id);

/** Grade 2 where `two` holds, else 1 where `one` holds. */
function grades(two: (a: JudgedArticle) => boolean, one: (a: JudgedArticle) => boolean = () => false): JudgedQuery["grade"] {
  return (a) => (two(a) ? 2 : one(a) ? 1 : 0);
}
const all = (...tests: Array<(a: JudgedArticle) => boolean>) => (a: JudgedArticle): boolean => tests.every((t) => t(a));
const any = (...tests: Array<(a: JudgedArticle) => boolean>) => (a: JudgedArticle): boolean => tests.some((t) => t(a));

const BALTIMORE = all(has(/baltimore|brooklyn homes/i), has(/shoot|shot|gun|wounded|injured|dead/i));
const FRANCE_RIOTS = all(has(/riot|unrest|violence|looting|protest|nahel|nanterre|marseille/i), has(/franc|french|nahel|nanterre|marseille|paris|macron/i));
const MEG_JOHNSON = has(/meg johnson/i);
const BIDEN_UK = all(has(/biden/i), has(/\bUK\b|king|britain|sunak|charles|windsor/i));
const TRAIN_OVERTIME = all(has(/train|rail|aslef|drivers/i), has(/overtime|strike|disruption|ban/i));
const AMAZON_DONATION = all(has(/dicaprio|bezos/i), has(/amazon/i));
const KYIV_DRONES = all(has(/kyiv|kiev/i), has(/drone|strike|attack/i));
const DUTCH_SLAVERY = all(has(/dutch|netherlands|willem/i), has(/slave|apolog/i));
const M6_MILK = has(/milk|M6 /i);
const TWITTER_LIMITS = all(has(/twitter|musk|tweets/i), has(/limit|cap|read/i));

export const JUDGED_QUERIES: JudgedQuery[] = [
  // Exact keywords: the words of the headlines.
  { kind: "keyword", q: "Baltimore block party shooting", grade: grades(BALTIMORE) },
  { kind: "keyword", q: "Sharad Pawar NCP", grade: grades(has(/sharad pawar/i), any(has(/\bNCP\b|ajit pawar/i))) },
  { kind: "keyword", q: "France rioting police", grade: grades(FRANCE_RIOTS) },
  { kind: "keyword", q: "Meg Johnson dies", grade: grades(MEG_JOHNSON) },
  { kind: "keyword", q: "Verstappen Austrian Grand Prix", grade: grades(has(/verstappen|austrian g/i)) },
  { kind: "keyword", q: "Djokovic Wimbledon", grade: grades(all(has(/djokovic/i), has(/wimbledon|grand slam/i)), has(/wimbledon|djokovic/i)) },
  { kind: "keyword", q: "Biden UK visit King", grade: grades(BIDEN_UK) },
  { kind: "keyword", q: "M6 milk tanker crash", grade: grades(M6_MILK) },
  { kind: "keyword", q: "Moms for Liberty school board", grade: grades(has(/moms for liberty/i)) },
  { kind: "keyword", q: "Hunter Biden IRS prosecutor", grade: grades(has(/hunter biden/i)) },

  // Paraphrases: no word shared with the headlines judged relevant.
  { kind: "paraphrase", q: "gunfire at a neighbourhood celebration in Maryland", grade: grades(BALTIMORE, has(/shooting|shot/i)) },
  { kind: "paraphrase", q: "nationwide unrest after a youth was killed by officers", grade: grades(FRANCE_RIOTS) },
  { kind: "paraphrase", q: "veteran television actress passes away", grade: grades(MEG_JOHNSON, has(/dies aged|died aged|dead at|passes away|obituar/i)) },
  { kind: "paraphrase", q: "American president's trip to Britain to see the monarch", grade: grades(BIDEN_UK) },
  { kind: "paraphrase", q: "rail staff decline extra shifts causing delays", grade: grades(TRAIN_OVERTIME) },
  { kind: "paraphrase", q: "actor and online retail billionaire fund rainforest protection", grade: grades(AMAZON_DONATION) },
  { kind: "paraphrase", q: "unmanned aircraft assault on Ukrainian capital intercepted", grade: grades(KYIV_DRONES, has(/ukrain|russia/i)) },
  { kind: "paraphrase", q: "European royal expresses regret over his country's role in human bondage", grade: grades(DUTCH_SLAVERY) },
  { kind: "paraphrase", q: "dairy spill closes English highway after truck accident", grade: grades(M6_MILK) },
  { kind: "paraphrase", q: "social platform caps daily reading for members", grade: grades(TWITTER_LIMITS, has(/twitter|musk/i)) },

  // Entity-centred: a person or an organization, whatever the article says of it.
  { kind: "entity", q: "Sharad Pawar", grade: grades(has(/sharad pawar/i), person("sharad pawar")) },
  { kind: "entity", q: "Hunter Biden", grade: grades(has(/hunter biden/i), person("hunter biden")) },
  { kind: "entity", q: "Elon Musk", grade: grades(has(/musk/i), person("elon musk")) },
  { kind: "entity", q: "Julian Assange", grade: grades(has(/assange/i), person("julian assange")) },
  { kind: "entity", q: "Novak Djokovic", grade: grades(has(/djokovic/i), person("novak djokovic")) },
  { kind: "entity", q: "Max Verstappen", grade: grades(has(/verstappen/i), person("max verstappen")) },
  { kind: "entity", q: "Vladimir Putin", grade: grades(has(/putin/i), person("vladimir putin")) },
  { kind: "entity", q: "Donald Trump", grade: grades(has(/trump/i), person("donald trump")) },
  { kind: "entity", q: "Moms for Liberty", grade: grades(has(/moms for liberty/i), org("moms for liberty")) },
  { kind: "entity", q: "Ron DeSantis", grade: grades(has(/desantis/i), person("ron desantis")) },

  // Cross-lingual: English queries whose best answers are in other languages (judged one by one), plus any
  // English article on the same event.
  {
    kind: "cross_lingual",
    q: "Assange supporters march in London against his extradition",
    grade: grades(any(oneOf(["20200222214500-T16", "20200222214500-T30"]), all(has(/assange/i), has(/protest|march|rally|extradit/i))), has(/assange/i)),
  },
  {
    kind: "cross_lingual",
    q: "Google Facebook and Apple asked to use their data to fight the coronavirus",
    grade: grades(oneOf(["20200318103000-T17", "20200318103000-T22"])),
  },
  {
    kind: "cross_lingual",
    q: "Wilder versus Fury heavyweight rematch",
    grade: grades(any(oneOf(["20200222214500-T347", "20200222011500-T559"]), all(has(/wilder/i), has(/fury/i))), has(/fury|wilder|heavyweight/i)),
  },
  { kind: "cross_lingual", q: "Messi scores four goals", grade: grades(any(oneOf(["20200222214500-T545"]), all(has(/messi/i), has(/four|goals/i))), has(/messi/i)) },
  {
    kind: "cross_lingual",
    q: "hardliners return to Iran's parliament as turnout falls",
    grade: grades(any(oneOf(["20200222214500-T263"]), all(has(/iran/i), has(/election|parliament|vote|turnout/i)))),
  },
  {
    kind: "cross_lingual",
    q: "Erdogan to host Syria summit with Russia France and Germany",
    grade: grades(any(oneOf(["20200222214500-T272"]), all(has(/erdogan/i), has(/syria/i)))),
  },
  {
    kind: "cross_lingual",
    q: "men's biathlon relay at the world championships",
    grade: grades(oneOf(["20200222214500-T887", "20200222214500-T240"]), has(/biathlon/i)),
  },
  {
    kind: "cross_lingual",
    q: "United States and Canada negotiate closing their border",
    grade: grades(any(oneOf(["20200318103000-T12"]), all(has(/canada/i), has(/border/i)))),
  },
  {
    kind: "cross_lingual",
    q: "ransomware cyberattack paralyses a French region",
    grade: grades(any(oneOf(["20200222011500-T16"]), has(/ransomware/i))),
  },
  {
    kind: "cross_lingual",
    q: "Toyota car plant in the Czech Republic halts production over coronavirus",
    grade: grades(oneOf(["20200318103000-T0"]), oneOf(["20200318103000-T2"])),
  },
];
