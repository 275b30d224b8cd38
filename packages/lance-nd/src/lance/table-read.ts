import type { RecordBatch, Schema } from "apache-arrow";
import { fromSdkBatch, fromSdkSchema } from "./arrow-bridge.js";
import { sdkCall } from "./sdk-call.js";
import type { LanceTable } from "./table-open.js";
import { checkoutVersion } from "./table-versions.js";

/**
 * The table schema (ESM apache-arrow instance) with field and schema metadata.
 *
 * @example
 * (await readTableSchema(table)).metadata.get("lance_nd:format"); // "1"
 */
export async function readTableSchema(table: LanceTable): Promise<Schema> {
  return fromSdkSchema(await sdkCall({ uri: table.uri, op: "schema" }, () => table.sdk.schema()));
}

/**
 * The bytes of the table's data files, as the manifest lists them (no
 * deletion files, no manifests): what the rows take on disk.
 */
export async function tableBytes(table: LanceTable): Promise<number> {
  return (await sdkCall({ uri: table.uri, op: "stats" }, () => table.sdk.stats())).totalBytes;
}

/**
 * The number of rows, or of rows that match a Lance SQL `filter`.
 *
 * @throws LanceNdError `InvalidInput` for a bad filter or an unknown column.
 */
export async function countRows(table: LanceTable, filter?: string): Promise<number> {
  return sdkCall({ uri: table.uri, op: "countRows" }, () => table.sdk.countRows(filter));
}

/** Options of {@link scanRows}. */
export interface ScanRowsOptions {
  /**
   * Top-level columns (plain names, no quoting) or nested paths
   * (`__global_attrs__.id`); default: all. An empty list reads no rows at all.
   */
  columns?: readonly string[];
  /**
   * A Lance SQL filter. Names with characters other than letters, digits and
   * `_` need backticks per segment: `` `__stats__:sst`.max > 300 ``.
   */
  filter?: string;
  /** At most this many rows. */
  limit?: number;
  /** At most this many rows per batch (Lance also cuts batches at fragment ends). */
  maxBatchLength?: number;
  /** Adds the `_rowid` column (UInt64) for {@link takeRows}. */
  withRowId?: boolean;
  /** Reads this version (number or tag) instead of the latest; the table handle stays where it is. */
  version?: number | string;
}

/**
 * Streams the rows of a table as record batches of this package's ESM
 * apache-arrow instance (converted from lancedb's, without copying).
 *
 * @throws LanceNdError `InvalidInput` for a bad filter or an unknown column
 * (when the stream starts); `InvalidInput` for a version that does not exist.
 * @example
 * for await (const batch of scanRows(table, { columns: ["sst"], filter: "__global_attrs__.id = 'a'" })) {}
 */
export async function* scanRows(table: LanceTable, options: ScanRowsOptions = {}): AsyncGenerator<RecordBatch> {
  const source = options.version === undefined ? table : await checkoutVersion(table, options.version);
  try {
    let query = source.sdk.query();
    if (options.columns !== undefined) query = query.select(projection(options.columns));
    if (options.filter !== undefined) query = query.where(options.filter);
    if (options.limit !== undefined) query = query.limit(options.limit);
    if (options.withRowId === true) query = query.withRowId();
    const context = { uri: table.uri, op: "scan" };
    // `execute` is the only streaming call that takes maxBatchLength; the SDK's
    // typings mark it protected, its docs and JS have it public.
    const streaming = query as unknown as {
      execute(options: { maxBatchLength?: number }): AsyncGenerator<RecordBatch>;
    };
    const iterator = streaming.execute(
      options.maxBatchLength === undefined ? {} : { maxBatchLength: options.maxBatchLength },
    );
    for (;;) {
      const next = await sdkCall(context, () => iterator.next());
      if (next.done === true) return;
      yield fromSdkBatch(next.value);
    }
  } finally {
    if (source !== table) source.sdk.close();
  }
}

/**
 * Reads the rows with the given `_rowid`s (from {@link scanRows} with
 * `withRowId`) in one call: the second step of a point read. The rows come
 * back in ascending row id order, not in the order of `rowIds`; unknown ids
 * are skipped. Row ids change on compaction (the SDK's tables have no stable
 * row ids), so take them from the same version.
 *
 * With `withRowId`, each batch has the `_rowid` column too.
 *
 * @throws LanceNdError `InvalidInput` for an unknown column.
 */
export async function takeRows(
  table: LanceTable,
  rowIds: readonly bigint[],
  columns?: readonly string[],
  withRowId = false,
): Promise<RecordBatch[]> {
  if (rowIds.length === 0) return [];
  let query = table.sdk.takeRowIds(rowIds);
  if (columns !== undefined) query = query.select(projection(columns));
  if (withRowId) query = query.withRowId();
  const batches = await sdkCall({ uri: table.uri, op: "take" }, () => query.toArrow());
  return batches.batches.map(fromSdkBatch);
}

/**
 * Reads the rows at the given offsets (positions in the table's version,
 * after deletions) in one call: the rows of an unfiltered read without a
 * `_rowid` lookup first. The rows come back in ascending offset order;
 * offsets past the end are skipped. Offsets move on any delete, so take them
 * from a handle pinned to one version.
 *
 * @throws LanceNdError `InvalidInput` for an unknown column.
 */
export async function takeOffsets(
  table: LanceTable,
  offsets: readonly number[],
  columns?: readonly string[],
): Promise<RecordBatch[]> {
  if (offsets.length === 0) return [];
  let query = table.sdk.takeOffsets([...offsets]);
  if (columns !== undefined) query = query.select(projection(columns));
  const batches = await sdkCall({ uri: table.uri, op: "take" }, () => query.toArrow());
  return batches.batches.map(fromSdkBatch);
}

/** A name Lance's SQL takes without backticks. */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * True when every name of `columns` is a plain top-level column: `select`
 * then gets a map of each name to itself as an expression, whose planning
 * time does not grow with the width of the schema the way a list of names
 * does (SDK-NOTES.md, section 18). Otherwise (a name that needs backticks,
 * which cost as much as the list; a nested path such as
 * `__global_attrs__.id`; `_rowid`, which Lance special-cases) it gets the
 * list of names.
 */
export function plainProjection(columns: readonly string[]): boolean {
  return columns.length > 0 && columns.every((name) => PLAIN_NAME.test(name) && !name.startsWith("_row"));
}

/** What `select` gets for `columns` ({@link plainProjection}). */
function projection(columns: readonly string[]): string[] | Map<string, string> {
  return plainProjection(columns) ? new Map(columns.map((name) => [name, name])) : [...columns];
}
