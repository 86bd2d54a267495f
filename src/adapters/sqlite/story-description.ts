import { mostSharedHeadlines, RepresentativeChoice } from "../../domain/stories/representative.js";
import type { StoryMember, StoryOverview } from "../../ports/story-index.js";
import { byRecency } from "./federation/walk-merge.js";
import { failMonth, type MonthConnections, type MonthRead } from "./month-reads.js";
import { memberFields, storyMonthOverview, type StoryMonthOverview } from "./story-overview.js";

// One story within a window, described whole on one read thread: its members
// in every monthly index, the counts per publisher and headline summed, the
// representative chosen and the newest members' documents read, in one call.
// Read month by month from the event loop, a story took a dozen round trips,
// and merging its members (thousands for a large story) ran on the event loop;
// a listing's page of ten took over a hundred.

/** Members whose documents are read at a time while looking for a story's representative. */
const REPRESENTATIVE_BATCH = 16;

export interface StoryDescriptionArgs {
  storyId: string;
  /** The months that can hold a member, newest first. */
  months: string[];
  from?: string;
  to?: string;
  /** Documents of the newest `limit` members; the `sources` publishers with the most members. */
  limit: number;
  sources: number;
}

export interface StoryDescription {
  months: MonthRead[];
  /** A month read holds a member in the window. */
  held: boolean;
  /** Undefined when no member is in the window; `listed` holds documents as stored (JSON). */
  story?: Omit<StoryOverview, "listed"> & { listed: string[] };
}

interface Member {
  month: string;
  rowid: number;
  id: string;
  published_at: string;
}

export function describeStory(args: StoryDescriptionArgs, connections: MonthConnections): StoryDescription {
  const months: MonthRead[] = [];
  const parts: Array<{ month: string; overview: StoryMonthOverview }> = [];
  const fail = (month: string, error: unknown): void => failMonth(months, connections, month, error);
  for (const month of args.months) {
    try {
      const overview = storyMonthOverview(connections.open(month), args.storyId, args.from, args.to);
      months.push({ month, outcome: "read" });
      if (overview !== undefined) parts.push({ month, overview });
    } catch (error) {
      fail(month, error);
    }
  }
  if (parts.length === 0) return { months, held: false };

  const members: Member[] = parts.flatMap(({ month, overview }) =>
    overview.members.map(([rowid, id, published_at]) => ({ month, rowid, id, published_at })),
  );
  // Each monthly index lists its members earliest first; only a story in several needs them merged.
  if (parts.length > 1) members.sort((a, b) => -byRecency(a, b));
  const sources = new Map<string, { value: string; articles: number }>();
  const headlines = new Map<string, number>();
  for (const { overview } of parts) {
    for (const { key, value, articles } of overview.sources) {
      const seen = sources.get(key);
      if (seen) seen.articles += articles;
      else sources.set(key, { value, articles });
    }
    for (const { headline, articles } of overview.headlines) headlines.set(headline, (headlines.get(headline) ?? 0) + articles);
  }
  // The representative (domain/stories/representative.ts): documents are read earliest first until it is met.
  const choice = new RepresentativeChoice<StoryMember>(mostSharedHeadlines(headlines));
  let chosen = false;
  for (let at = 0; !chosen && at < members.length; at += REPRESENTATIVE_BATCH) {
    const batch = members.slice(at, at + REPRESENTATIVE_BATCH);
    const fields = fieldsOf(batch, connections, fail);
    for (const m of batch) {
      const f = fields.get(m.id);
      if (f === undefined) continue;
      chosen = choice.offer({ id: m.id, title: f.title, url: f.url, source: f.source, published_at: m.published_at });
      if (chosen) break;
    }
  }
  const first_reported = choice.first;
  const representative = choice.chosen;
  if (first_reported === undefined || representative === undefined) return { months, held: true };

  const newest = members.slice(Math.max(0, members.length - args.limit)).reverse();
  const docs = new Map<string, string>();
  for (const [month, batch] of byMonth(newest)) {
    try {
      for (const [id, doc] of connections.open(month).getDocs(batch.map((m) => m.id))) docs.set(id, doc);
    } catch (error) {
      fail(month, error);
    }
  }
  return {
    months,
    held: true,
    story: {
      story_id: args.storyId,
      count: members.length,
      outlets: sources.size,
      sources: [...sources.entries()]
        .sort(([ka, a], [kb, b]) => b.articles - a.articles || (ka < kb ? -1 : ka > kb ? 1 : 0))
        .slice(0, args.sources)
        .map(([, s]) => s.value),
      representative,
      first_reported,
      listed: newest.flatMap((m) => docs.get(m.id) ?? []),
    },
  };
}

/** Title, url and publisher of the given members, by article id. */
function fieldsOf(
  members: readonly Member[],
  connections: MonthConnections,
  fail: (month: string, error: unknown) => void,
): Map<string, { title: string | null; url: string | null; source: string | null }> {
  const fields = new Map<string, { title: string | null; url: string | null; source: string | null }>();
  for (const [month, batch] of byMonth(members)) {
    try {
      const found = memberFields(
        connections.open(month),
        batch.map((m) => m.rowid),
      );
      for (const m of batch) {
        const f = found.get(m.rowid);
        if (f) fields.set(m.id, f);
      }
    } catch (error) {
      fail(month, error);
    }
  }
  return fields;
}

function byMonth(members: readonly Member[]): Map<string, Member[]> {
  const grouped = new Map<string, Member[]>();
  for (const m of members) {
    let list = grouped.get(m.month);
    if (!list) grouped.set(m.month, (list = []));
    list.push(m);
  }
  return grouped;
}
