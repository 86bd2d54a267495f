import type { ArticleDetail } from "../../domain/article.js";
import { parseExtras } from "./extras.js";
import * as C from "./gkg-columns.js";
import { parseEnhancedDates } from "./gkg-dates.js";
import {
  documentUrl,
  lowerCasedEntities,
  normaliseSource,
  offsetListNames,
  parseAmounts,
  parseAuthors,
  parseLanguage,
  parseQuotations,
  parseTone,
  sourceTypeOf,
} from "./gkg-fields.js";
import { parseLocations } from "./gkg-locations.js";
import { eventTypesOf } from "../../domain/vocabularies/events-v1.js";
import { computeSignals } from "../../domain/vocabularies/signals-v1.js";
import { signalInput, themeMentions } from "./gkg-signals.js";
import { decodeText, decodeUrl, distinct, parseUrlList } from "./gkg-text.js";
import { isGkgTimestamp } from "./gkg-timestamp.js";
import type { PublisherCountryResolver } from "./publisher-country.js";

// One GKG 2.1 record (27 fields) to an ArticleDetail, following DESIGN.md
// "GKG 2.1 -> Article mapping". Only a broken identity (id, collection time, field
// count) rejects the record; any other odd value degrades to null / [] on its own.

export type GkgRecordResult = { ok: true; article: ArticleDetail } | { ok: false; reason: string };

const TIMESTAMP_PREFIX = /^\d{14}/;

function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

function nullIfEmpty(value: string): string | null {
  return value === "" ? null : value;
}

export function parseGkgRecord(fields: readonly string[], publisherCountry: PublisherCountryResolver): GkgRecordResult {
  if (fields.length !== C.GKG_COLUMN_COUNT) {
    return { ok: false, reason: `expected ${C.GKG_COLUMN_COUNT} fields, got ${fields.length}` };
  }
  const field = (index: number): string => fields[index] ?? "";

  const id = field(C.COL_GKGRECORDID).trim();
  if (!TIMESTAMP_PREFIX.test(id) || !isGkgTimestamp(id.slice(0, 14))) {
    return { ok: false, reason: `GKGRECORDID ${shown(id)} does not start with a 14-digit timestamp` };
  }
  const collectedAt = field(C.COL_DATE).trim();
  if (!isGkgTimestamp(collectedAt)) {
    return { ok: false, reason: `V2.1DATE ${shown(collectedAt)} is not a 14-digit timestamp` };
  }

  const extras = parseExtras(field(C.COL_EXTRAS_XML));
  const precise = extras.get("PAGE_PRECISEPUBTIMESTAMP")?.trim() ?? "";
  const collection = field(C.COL_SOURCE_COLLECTION);
  const source = normaliseSource(field(C.COL_SOURCE_COMMON_NAME));
  const tone = parseTone(field(C.COL_V15_TONE));
  const places = parseLocations(field(C.COL_V2_LOCATIONS), field(C.COL_V1_LOCATIONS));
  const dates = parseEnhancedDates(field(C.COL_V21_DATES));
  const title = nullIfEmpty(decodeText(extras.get("PAGE_TITLE") ?? ""));
  const url = documentUrl(collection, field(C.COL_DOCUMENT_IDENTIFIER));
  // One read of the theme lists for both: topics are their distinct codes, signals count every mention.
  const mentions = themeMentions(field(C.COL_V2_THEMES), field(C.COL_V1_THEMES));
  const topics = distinct(mentions.map((theme) => theme.toLowerCase()));
  const signals = computeSignals(signalInput(mentions, field(C.COL_V2_GCAM), tone.word_count));

  const article: ArticleDetail = {
    id,
    title,
    url,
    source,
    source_type: sourceTypeOf(collection),
    publisher_country: publisherCountry.countryOf(source),
    language: parseLanguage(field(C.COL_TRANSLATION_INFO), title),
    // A page cannot be published after GDELT collected it; later stamps are timezone slips.
    published_at: isGkgTimestamp(precise) && precise <= collectedAt ? precise : collectedAt,
    collected_at: collectedAt,
    authors: parseAuthors(extras.get("PAGE_AUTHORS")),
    countries: places.countries,
    locations: places.locations,
    organizations: lowerCasedEntities(field(C.COL_V2_ORGANIZATIONS), field(C.COL_V1_ORGANIZATIONS)),
    persons: lowerCasedEntities(field(C.COL_V2_PERSONS), field(C.COL_V1_PERSONS)),
    topics,
    image: nullIfEmpty(decodeUrl(field(C.COL_SHARING_IMAGE))),
    tone: tone.tone,
    word_count: tone.word_count,
    // Clustering assigns stories later; until then an article is its own story.
    story_id: id,
    // Derived at ingest (DESIGN.md "Derived vocabularies"); `signals` is absent without a word count.
    ...(signals === undefined ? {} : { signals }),
    event_types: eventTypesOf(topics, title, url),
    activity_density: tone.activity_density,
    negative_score: tone.negative_score,
    polarity: tone.polarity,
    positive_score: tone.positive_score,
    self_reference_density: tone.self_reference_density,
    cities: places.cities,
    regions: places.regions,
    mentioned_dates: dates.mentioned_dates,
    names: distinct(offsetListNames(field(C.COL_ALL_NAMES))),
    amounts: parseAmounts(field(C.COL_AMOUNTS)),
    quotes: parseQuotations(field(C.COL_QUOTATIONS)),
    date_mentions: dates.date_mentions,
    location_details: places.location_details,
    amp_url: nullIfEmpty(decodeUrl(extras.get("PAGE_ALTURL_AMP") ?? "")),
    mobile_url: nullIfEmpty(decodeUrl(extras.get("PAGE_ALTURL_MOBILE") ?? "")),
    links: parseUrlList(extras.get("PAGE_LINKS") ?? ""),
    related_images: parseUrlList(field(C.COL_RELATED_IMAGES)),
    social_images: parseUrlList(field(C.COL_SOCIAL_IMAGE_EMBEDS)),
    social_videos: parseUrlList(field(C.COL_SOCIAL_VIDEO_EMBEDS)),
  };
  return { ok: true, article };
}
