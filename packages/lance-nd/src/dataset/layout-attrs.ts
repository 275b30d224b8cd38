/**
 * The global attributes that make rows a layout of a dataset (README
 * "Layouts"): a layout is the same values as its source dataset cut into
 * rows of another chunk shape, stored under the id `<id>@<name>`, each of
 * its rows saying what it mirrors. They are the layout's completion record:
 * a layout is current at a table version when exactly `layout_rows` rows of
 * it are there and each names the source state the version holds.
 */
import { createHash } from "node:crypto";

/** The id of the dataset a layout holds the values of. */
export const LAYOUT_OF = "layout_of";
/** The state of the source the layout mirrors: a fingerprint of the source rows' stable row ids. */
export const LAYOUT_SOURCE = "layout_source";
/** The table version of the source the layout was cut from (shown by `info`; the fingerprint decides). */
export const LAYOUT_SOURCE_VERSION = "layout_source_version";
/** The number of rows of the complete layout. */
export const LAYOUT_ROWS = "layout_rows";
/** The layout's chunk shape as `rechunk` took it, e.g. `time=all,lat=20,lon=20`. */
export const LAYOUT_CHUNK = "layout_chunk";

/** The global attributes of a layout row that the source's rows do not have. */
export const LAYOUT_ATTRS: readonly string[] = [
  LAYOUT_OF,
  LAYOUT_SOURCE,
  LAYOUT_SOURCE_VERSION,
  LAYOUT_ROWS,
  LAYOUT_CHUNK,
];

/** The name that forces a read on the source dataset's own rows (no layout may take it). */
export const SOURCE_LAYOUT = "source";

/** The separator between a dataset's id and a layout's name in the layout's id. */
export const LAYOUT_SEPARATOR = "@";

/** The id of layout `name` of dataset `id`: `<id>@<name>`. */
export function layoutId(id: string, name: string): string {
  return `${id}${LAYOUT_SEPARATOR}${name}`;
}

/** The name of a layout from its id and its source's id. */
export function layoutName(id: string, sourceId: string): string {
  return id.slice(sourceId.length + LAYOUT_SEPARATOR.length);
}

/**
 * The fingerprint of a dataset's rows: their count and a hash of their
 * sorted `_rowid`s. lance-nd tables have stable row ids (never reused,
 * kept by compaction), so an append, replace, concat append or delete of
 * the source changes it, and a restore gives back the fingerprint of the
 * state it restores.
 */
export function rowsFingerprint(rowIds: readonly bigint[]): string {
  const sorted = [...rowIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const hash = createHash("sha256").update(sorted.join(",")).digest("hex").slice(0, 32);
  return `${sorted.length}:${hash}`;
}
