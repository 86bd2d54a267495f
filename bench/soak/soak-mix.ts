// The soak's mixed requests: every kind of read a client makes, in fixed
// shares, with the words, filters and ids varied so no single answer is
// repeated back to back.

export interface MixEntry {
  kind: string;
  /** Share of the requests, out of the sum of all weights. */
  weight: number;
  /** The path of the n-th request of this kind. */
  path(n: number): string;
}

const WORDS = ["baltimore shooting", "climate", "police", "election", "biden", "fire", "court", "football"];
const LANGUAGES = ["eng", "fra", "spa", "deu"];
const COUNTRIES = ["US", "UK", "IN", "AS", "CA"];

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;
const query = (params: Record<string, string>): string => new URLSearchParams(params).toString();

/** The mix over a corpus whose article and story ids are `ids` and `stories`. */
export function soakMix(ids: readonly string[], stories: readonly string[]): MixEntry[] {
  return [
    { kind: "keyword", weight: 25, path: (n) => `/search?${query({ q: pick(WORDS, n) })}` },
    {
      kind: "keyword + filter",
      weight: 10,
      path: (n) => `/search?${query({ q: pick(WORDS, n), publisher_country: pick(COUNTRIES, n) })}`,
    },
    { kind: "browse", weight: 15, path: (n) => (n % 2 === 0 ? "/search" : `/search?${query({ language: pick(LANGUAGES, n) })}`) },
    {
      kind: "facets",
      weight: 8,
      path: (n) => `/search?${query({ q: pick(WORDS, n), facets: "source,person,topic" })}`,
    },
    { kind: "stories", weight: 12, path: (n) => (n % 2 === 0 ? "/stories" : `/stories?${query({ q: pick(WORDS, n) })}`) },
    { kind: "story", weight: 5, path: (n) => `/stories/${encodeURIComponent(pick(stories, n))}?limit=5` },
    { kind: "doc", weight: 25, path: (n) => `/doc/${encodeURIComponent(pick(ids, n))}` },
  ];
}

/** Deals the mix's kinds in their shares, evenly interleaved: the i-th request's entry. */
export function dealer(mix: readonly MixEntry[]): (i: number) => MixEntry {
  const total = mix.reduce((sum, entry) => sum + entry.weight, 0);
  const deck: MixEntry[] = [];
  // Smooth weighted round robin: each kind comes up in proportion, spread through the deck.
  const credit = mix.map(() => 0);
  for (let i = 0; i < total; i++) {
    let best = 0;
    mix.forEach((entry, k) => {
      credit[k] = (credit[k] as number) + entry.weight;
      if ((credit[k] as number) > (credit[best] as number)) best = k;
    });
    credit[best] = (credit[best] as number) - total;
    deck.push(mix[best] as MixEntry);
  }
  return (i) => deck[i % deck.length] as MixEntry;
}
