/** Scalar indexes of a table through the SDK (README.md, "Key indexes"; SDK-NOTES.md, section 22). */
import { Index } from "@lancedb/lancedb";
import { sdkCall } from "./sdk-call.js";
import type { LanceTable } from "./table-open.js";

/**
 * Creates (or replaces) a BTree index on `column`, a column or a nested
 * field path (`__global_attrs__.id`). One commit; Lance then answers
 * equality, range and IN filters on the column from the index for the rows
 * it covers, and scans the rows appended since.
 */
export async function createBtreeIndex(table: LanceTable, column: string): Promise<void> {
  await sdkCall({ uri: table.uri, op: "createIndex", column }, () =>
    table.sdk.createIndex(column, { config: Index.btree(), replace: true }),
  );
}

/** One single-column index of a table: the column (path) it covers and Lance's name of it. */
export interface ColumnIndex {
  /** The indexed column or nested field path. */
  column: string;
  /** Lance's name of the index. */
  name: string;
}

/** The single-column indexes of the handle's version. */
export async function listColumnIndexes(table: LanceTable): Promise<ColumnIndex[]> {
  const indexes = await sdkCall({ uri: table.uri, op: "listIndices" }, () => table.sdk.listIndices());
  return indexes
    .filter((index) => index.columns.length === 1)
    .map((index) => ({ column: index.columns[0]!, name: index.name }));
}

/** Rows appended since index `name` was built or last optimised (`compact`); Lance scans them. */
export async function unindexedRows(table: LanceTable, name: string): Promise<number> {
  const stats = await sdkCall({ uri: table.uri, op: "indexStats" }, () => table.sdk.indexStats(name));
  return stats?.numUnindexedRows ?? 0;
}
