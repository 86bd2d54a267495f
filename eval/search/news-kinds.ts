// The IPTC Media Topics' 17 top-level subjects (iptc.org/standards/media-topics), each with its definition: a fixed,
// public vocabulary of kinds of news, used here unchanged (not adapted to any judged topic) to place an article among
// kinds of news by zero-shot similarity to these texts.

export const NEWS_KINDS: readonly string[] = [
  "arts, culture, entertainment and media: all forms of arts, entertainment, cultural heritage and media",
  "conflict, war and peace: acts of socially or politically motivated protest or violence, military activities, geopolitical conflicts, as well as resolution efforts",
  "crime, law and justice: the establishment and/or statement of the rules of behaviour in society, the enforcement of these rules, breaches of the rules, the punishment of offenders and the organisations and bodies involved in these activities",
  "disaster, accident and emergency incident: man made or natural event resulting in loss of life or injury to living creatures and/or damage to inanimate objects or property",
  "economy, business and finance: all matters concerning the planning, production and exchange of wealth",
  "education: all aspects of furthering knowledge, formally or informally",
  "environment: all aspects of protection, damage, and condition of the ecosystem of the planet earth and its surroundings",
  "health: all aspects of physical and mental well-being",
  "human interest: item that discusses individuals, groups, animals, plants or other objects in an emotional way",
  "labour: social aspects, organisations, rules and conditions affecting the employment relationship",
  "lifestyle and leisure: activities undertaken for pleasure, relaxation or recreation outside paid employment, including eating and travel",
  "politics: local, regional, national and international exercise of power, or struggle for power, and the relationships between governing bodies and states",
  "religion: belief systems, institutions and people who provide moral guidance to followers",
  "science and technology: all aspects pertaining to human understanding of, as well as methodical study of, the natural world, and the application of that knowledge",
  "society: the concerns, issues, affairs and institutions relevant to human social interactions, problems and welfare, such as poverty, human rights and family planning",
  "sport: competitive activity or skill that involves physical and/or mental effort and organisations and bodies involved in these activities",
  "weather: the study, prediction and reporting of meteorological phenomena",
];

/**
 * An article's share of each kind: softmax at `temperature` of its cosine to each kind's text less `bias` (per kind:
 * its mean cosine over the corpus, so a kind whose text is near every passage, as "health" is, stops winning everywhere).
 */
export function kindShares(
  vector: Float32Array,
  kinds: readonly Float32Array[],
  temperature: number,
  bias: readonly number[] = [],
): Float32Array {
  const logits = kinds.map((k, j) => (cosineOf(k, vector) - (bias[j] ?? 0)) / temperature);
  const max = Math.max(...logits);
  const exp = logits.map((x) => Math.exp(x - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  return Float32Array.from(exp, (x) => x / sum);
}

/** Per kind, its mean cosine to `vectors`. */
export function kindBias(vectors: readonly Float32Array[], kinds: readonly Float32Array[]): number[] {
  return kinds.map((k) => vectors.reduce((s, v) => s + cosineOf(k, v), 0) / Math.max(1, vectors.length));
}

function cosineOf(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}
