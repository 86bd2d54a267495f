// GKG 2.1 column positions (0-based indexes into a record's fields), so that no
// parser code carries a bare number. Names follow the GKG 2.1 codebook.

export const GKG_COLUMN_COUNT = 27;

export const COL_GKGRECORDID = 0;
export const COL_DATE = 1;
export const COL_SOURCE_COLLECTION = 2;
export const COL_SOURCE_COMMON_NAME = 3;
export const COL_DOCUMENT_IDENTIFIER = 4;
export const COL_V1_COUNTS = 5;
export const COL_V21_COUNTS = 6;
export const COL_V1_THEMES = 7;
export const COL_V2_THEMES = 8;
export const COL_V1_LOCATIONS = 9;
export const COL_V2_LOCATIONS = 10;
export const COL_V1_PERSONS = 11;
export const COL_V2_PERSONS = 12;
export const COL_V1_ORGANIZATIONS = 13;
export const COL_V2_ORGANIZATIONS = 14;
export const COL_V15_TONE = 15;
export const COL_V21_DATES = 16;
export const COL_V2_GCAM = 17;
export const COL_SHARING_IMAGE = 18;
export const COL_RELATED_IMAGES = 19;
export const COL_SOCIAL_IMAGE_EMBEDS = 20;
export const COL_SOCIAL_VIDEO_EMBEDS = 21;
export const COL_QUOTATIONS = 22;
export const COL_ALL_NAMES = 23;
export const COL_AMOUNTS = 24;
export const COL_TRANSLATION_INFO = 25;
export const COL_EXTRAS_XML = 26;

/**
 * Column names of the BigQuery table `gdelt-bq.gdeltv2.gkg(_partitioned)`, in GKG order.
 * A BigQuery CSV export carries them as its header; we map columns by these names so an
 * export that selected the columns in another order still parses.
 */
export const BIGQUERY_COLUMN_NAMES: readonly string[] = [
  "GKGRECORDID",
  "DATE",
  "SourceCollectionIdentifier",
  "SourceCommonName",
  "DocumentIdentifier",
  "Counts",
  "V2Counts",
  "Themes",
  "V2Themes",
  "Locations",
  "V2Locations",
  "Persons",
  "V2Persons",
  "Organizations",
  "V2Organizations",
  "V2Tone",
  "Dates",
  "GCAM",
  "SharingImage",
  "RelatedImages",
  "SocialImageEmbeds",
  "SocialVideoEmbeds",
  "Quotations",
  "AllNames",
  "Amounts",
  "TranslationInfo",
  "Extras",
];

/** A BigQuery export starts with this header prefix; raw GKG files have no header. */
export const BIGQUERY_HEADER_PREFIX = "GKGRECORDID,";
