/**
 * Key indexes: a Lance BTree index on one global attribute, so that point
 * reads by that key (`col("__global_attrs__.id").eq(...)`) cost the same
 * whatever the number of fragments (README.md, "Key indexes").
 */
import { DataType, type Struct } from "apache-arrow";
import { GLOBAL_ATTRS_COLUMN } from "@lance-nd/nd-arrow";
import { LanceNdError } from "../errors.js";
import { createBtreeIndex, listColumnIndexes, unindexedRows, type ColumnIndex } from "../lance/table-indexes.js";
import type { LanceTable } from "../lance/table-open.js";
import type { NdTable } from "../table.js";
import { checkTable, checkWritable } from "../table-check.js";
import { inSpan } from "../tracing.js";

/** A global attribute with a key index. */
export interface KeyIndex {
  /** The global attribute's key, e.g. `id`. */
  key: string;
  /** Rows written since the index was built or last brought up to date by `compact`: Lance scans them. */
  unindexedRows: number;
}

/**
 * Indexes global attribute `key` (a BTree index on `__global_attrs__.<key>`,
 * one commit), or rebuilds its index. Filters on the key (`eq`, `isIn`,
 * ranges) then find their rows from the index instead of reading the key of
 * every fragment: at 1 GiB (65 fragments) the `_rowid` lookup of one chunk
 * took 1.5 ms instead of 19 ms. Rows appended later are found by a scan of
 * theirs alone until `compact` adds them to the index. A widen by rewrite
 * builds the table's key indexes again. Returns the table version after it.
 * Span `lance_nd.index`.
 *
 * @throws LanceNdError `InvalidInput` for a read-only view, a table without
 * global attributes, an unknown key, or a key whose values are lists.
 * @example
 * await indexGlobalAttr(table, "id");
 */
export async function indexGlobalAttr(table: NdTable, key: string): Promise<number> {
  checkWritable(table, "indexGlobalAttr");
  if (typeof key !== "string" || key === "") {
    throw new LanceNdError("InvalidInput", `indexGlobalAttr: key must be a non-empty string, got ${String(key)}`, {
      uri: table.uri,
    });
  }
  return inSpan(
    "lance_nd.index",
    table.uri,
    async () => {
      const layout = await table.refresh();
      const attrFields = (layout.globalAttrs?.type as Struct | undefined)?.children ?? [];
      const field = attrFields.find((f) => f.name === key);
      if (field === undefined) {
        const known = attrFields.map((f) => f.name);
        throw new LanceNdError(
          "InvalidInput",
          `indexGlobalAttr: the table has no global attribute "${key}" (it has ${known.length === 0 ? "none" : known.join(", ")})`,
          { uri: table.uri, column: `${GLOBAL_ATTRS_COLUMN}.${key}` },
        );
      }
      if (DataType.isList(field.type) || DataType.isFixedSizeList(field.type) || DataType.isStruct(field.type)) {
        throw new LanceNdError(
          "InvalidInput",
          `indexGlobalAttr: global attribute "${key}" holds ${String(field.type)} values; only scalar attributes can be indexed`,
          { uri: table.uri, column: `${GLOBAL_ATTRS_COLUMN}.${key}` },
        );
      }
      await createBtreeIndex(table.lance, `${GLOBAL_ATTRS_COLUMN}.${key}`);
      return table.version();
    },
    { "lance_nd.key": key },
  );
}

/**
 * The global attributes of the table's version that have a key index
 * ({@link indexGlobalAttr}), in index order.
 *
 * @example
 * (await keyIndexes(table)).map((k) => k.key); // ["id"]
 */
export async function keyIndexes(table: NdTable): Promise<KeyIndex[]> {
  checkTable(table, "keyIndexes");
  const prefix = `${GLOBAL_ATTRS_COLUMN}.`;
  return (await keyIndexRows(table.lance)).map(({ index, unindexedRows }) => ({
    key: index.column.slice(prefix.length),
    unindexedRows,
  }));
}

/**
 * @internal The indexes of the version on global attributes (the key
 * indexes), with their column paths: a widen by rewrite builds them again.
 */
export async function keyIndexesOf(lance: LanceTable): Promise<ColumnIndex[]> {
  const prefix = `${GLOBAL_ATTRS_COLUMN}.`;
  return (await listColumnIndexes(lance)).filter((index) => index.column.startsWith(prefix));
}

/**
 * @internal The paths of the key indexes (`__global_attrs__.id`) that cover
 * every row of the handle's version: those Lance answers a filter from
 * without scanning rows.
 */
export async function fullyIndexedKeys(lance: LanceTable): Promise<Set<string>> {
  const indexes = await keyIndexRows(lance);
  return new Set(indexes.filter((key) => key.unindexedRows === 0).map((key) => key.index.column));
}

/** The key indexes of the handle's version, each with the rows appended since it was built. */
async function keyIndexRows(lance: LanceTable): Promise<{ index: ColumnIndex; unindexedRows: number }[]> {
  const indexes = await keyIndexesOf(lance);
  return Promise.all(indexes.map(async (index) => ({ index, unindexedRows: await unindexedRows(lance, index.name) })));
}
