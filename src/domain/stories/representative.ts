import { headlineKey } from "./headline-key.js";

// The member standing for a story (/stories `representative`, /stories/{id}):
// the earliest (ties by id) of those whose normalised headline the most members
// share; without a shared headline, the earliest titled member; without any
// title, the earliest member. An index gives the headline tallies over every
// member in the window and offers members earliest first, reading their
// documents only until the choice is made.

/** What the choice reads of a member. */
export interface RepresentativeCandidate {
  title: string | null;
  source: string | null;
}

/** Headlines carried by the most members (empty when no member has a title). */
export function mostSharedHeadlines(tallies: Iterable<readonly [string, number]>): Set<string> {
  const all = [...tallies];
  const most = Math.max(0, ...all.map(([, n]) => n));
  return new Set(most === 0 ? [] : all.flatMap(([headline, n]) => (n === most ? [headline] : [])));
}

export class RepresentativeChoice<M extends RepresentativeCandidate> {
  private earliest: M | undefined;
  private earliestTitled: M | undefined;
  private found: M | undefined;

  constructor(private readonly shared: ReadonlySet<string>) {}

  /** Offers the next member, earliest first; true once the representative is known (later members can be skipped). */
  offer(member: M): boolean {
    if (this.found !== undefined) return true;
    this.earliest ??= member;
    if (member.title !== null) this.earliestTitled ??= member;
    const headline = headlineKey(member.title, member.source);
    if (this.shared.size === 0 || (headline !== null && this.shared.has(headline))) this.found = member;
    return this.found !== undefined;
  }

  /** The earliest member offered (the story's first reporter). */
  get first(): M | undefined {
    return this.earliest;
  }

  /** The representative among the members offered: a titled member whenever one has a title. */
  get chosen(): M | undefined {
    return this.found ?? this.earliestTitled ?? this.earliest;
  }
}
