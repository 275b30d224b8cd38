/** The metadata keys of the format (FORMAT.md sections 3, 4 and 5). */

/** The table schema metadata key that holds the format version. */
export const FORMAT_KEY = "lance_nd:format";
/** The format version this package reads and writes. */
export const FORMAT_VERSION = 1;
/** The table schema metadata key that marks a table with stats. */
export const STATS_KEY = "lance_nd:stats";
/** The prefix of the column defaults keys in the table schema metadata. */
export const COLUMN_DEFAULTS_PREFIX = "lance_nd.column_defaults";
/** The prefix of Lance's encoding keys in field metadata. */
export const ENCODING_PREFIX = "lance-encoding:";

/** True for the keys of the table schema metadata that belong to the format. */
export function isFormatMetadataKey(key: string): boolean {
  return key === FORMAT_KEY || key === STATS_KEY || key.startsWith(COLUMN_DEFAULTS_PREFIX);
}
