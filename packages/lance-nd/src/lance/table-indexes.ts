/** Scalar indexes of a table through the SDK (README.md, "Key indexes"; SDK-NOTES.md, section 21). */
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

/** One index of a table: the column (path) it covers and the rows it does not cover yet. */
export interface ColumnIndex {
  /** The indexed column or nested field path. */
  column: string;
  /** Lance's name of the index. */
  name: string;
  /** Rows appended since the index was built or last optimised (`compact`); Lance scans them. */
  unindexedRows: number;
}

/** The single-column indexes of the handle's version. */
export async function listColumnIndexes(table: LanceTable): Promise<ColumnIndex[]> {
  const indexes = await sdkCall({ uri: table.uri, op: "listIndices" }, () => table.sdk.listIndices());
  const out: ColumnIndex[] = [];
  for (const index of indexes) {
    if (index.columns.length !== 1) continue;
    const stats = await sdkCall({ uri: table.uri, op: "indexStats" }, () => table.sdk.indexStats(index.name));
    out.push({ column: index.columns[0]!, name: index.name, unindexedRows: stats?.numUnindexedRows ?? 0 });
  }
  return out;
}
