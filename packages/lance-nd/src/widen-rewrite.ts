/**
 * The rewrite path of `widen`, for the widenings Lance cannot cast in place
 * (across kinds, or a second cast of a nested field): every row is read from
 * one version, the variable's values and stats cast, and the rows written
 * again as one new version (a Lance overwrite).
 */
import { castVector } from "@lance-nd/casting";
import type { Widening } from "@lance-nd/format";
import {
  type DataType,
  type List,
  makeData,
  makeVector,
  RecordBatch,
  Struct,
  vectorFromArray,
  type Data,
  type Field,
  type Schema,
} from "apache-arrow";
import { LanceNdError } from "./errors.js";
import { overwriteTable, type LanceTable } from "./lance/table-open.js";
import { sdkCall } from "./lance/sdk-call.js";
import { countRows, readTableSchema, scanRows } from "./lance/table-read.js";
import { checkoutVersion, currentVersion } from "./lance/table-versions.js";
import { appendRows } from "./lance/table-write.js";

/**
 * Writes every row of the table again with the variable of `widening` cast
 * to its new type (Safe) and its stats column of the new type, under
 * `schema` (the table schema after the widening: field and schema metadata,
 * encodings and column defaults stay), as ONE new version (a Lance
 * overwrite). Earlier versions stay readable. The rows get new row ids and
 * creation versions (Lance keeps the table's stable row ids setting). All
 * rows are held in memory at once. Returns the new version.
 *
 * Lance lets an overwrite replace whatever was committed after the rows
 * were read (measured: SDK 0.39 reports no conflict). Rows that other
 * writers appended in that window are therefore appended again, cast, in
 * one more commit. Any other commit in the window (a delete, a schema
 * change) cannot be replayed: `CommitConflict` then names the versions,
 * which stay readable (`checkout`, `restore`).
 *
 * @throws LanceNdError `CommitConflict` for overwritten commits that were not plain appends.
 */
export async function rewriteWidened(table: LanceTable, schema: Schema, widening: Widening): Promise<number> {
  const read = await currentVersion(table);
  const rows: RecordBatch[] = [];
  for await (const batch of scanRows(table, { version: read })) rows.push(castBatch(batch, schema, widening));
  const version = await overwriteTable(table, schema, rows);
  await sdkCall({ uri: table.uri, op: "refresh" }, () => table.sdk.checkoutLatest());
  return version === read + 1 ? version : reappendOverwritten(table, schema, widening, read, version);
}

/** Appends again the rows that versions `read` + 1 .. `overwrite` - 1 appended and the overwrite dropped. */
async function reappendOverwritten(
  table: LanceTable,
  schema: Schema,
  widening: Widening,
  read: number,
  overwrite: number,
): Promise<number> {
  const last = overwrite - 1;
  const versions = `versions ${read + 1}..${last}`;
  const view = await checkoutVersion(table, last);
  const before = await checkoutVersion(table, read);
  try {
    const added = (await countRows(view)) - (await countRows(before));
    const filter = `_row_created_at_version > ${read}`;
    const sameSchema = (await readTableSchema(view)).fields.length === (await readTableSchema(before)).fields.length;
    if (!sameSchema || added < 0 || (await countRows(view, filter)) !== added) {
      throw new LanceNdError(
        "CommitConflict",
        `widen: the rewrite of the table (version ${overwrite}) replaced ${versions}, which other writers committed meanwhile and which were not plain appends; they stay readable (checkout, restore ${last})`,
        { uri: table.uri, column: widening.column },
      );
    }
    const rows: RecordBatch[] = [];
    for await (const batch of scanRows(view, { filter })) rows.push(castBatch(batch, schema, widening));
    return await appendRows(table, rows);
  } finally {
    view.sdk.close();
    before.sdk.close();
  }
}

/** One scanned batch under the widened schema: the variable's values and stats cast, other columns as they are. */
function castBatch(batch: RecordBatch, schema: Schema, widening: Widening): RecordBatch {
  const statsName = widening.statsColumn?.name;
  const children = schema.fields.map((field): Data => {
    const old = batch.getChild(field.name)?.data[0];
    if (field.name === widening.column) return castValuesChild(old!, field, widening.to);
    if (field.name === statsName)
      return old === undefined ? nullData(field.type, batch.numRows) : castChildren(old, field.type, widening.to);
    return old!;
  });
  const data = makeData({ type: new Struct(schema.fields), length: batch.numRows, nullCount: 0, children });
  return new RecordBatch(schema, data);
}

/** The array column with its `values` list items cast to `to`. */
function castValuesChild(column: Data, field: Field, to: DataType): Data {
  const type = field.type as Struct;
  const children = type.children.map((child, i) => {
    const old = column.children[i]!;
    if (child.name !== "values") return old;
    const item = castVector(makeVector(old.children[0]!), to, "safe").data[0]!;
    const list = { offset: old.offset, length: old.length, nullCount: old.nullCount, nullBitmap: old.nullBitmap };
    return makeData({ ...list, type: child.type as List, valueOffsets: old.valueOffsets, child: item });
  });
  return makeData({
    type,
    offset: column.offset,
    length: column.length,
    nullCount: column.nullCount,
    nullBitmap: column.nullBitmap,
    children,
  });
}

/** A stats column (`min`, `max`) with both children cast to `to`. */
function castChildren(column: Data, type: DataType, to: DataType): Data {
  const children = column.children.map((child) => castVector(makeVector(child), to, "safe").data[0]!);
  return makeData({
    type: type as Struct,
    offset: column.offset,
    length: column.length,
    nullCount: column.nullCount,
    nullBitmap: column.nullBitmap,
    children,
  });
}

/** An all-null column of `length` rows (the stats of rows whose old type had none). */
function nullData(type: DataType, length: number): Data {
  return vectorFromArray(new Array<null>(length).fill(null), type).data[0]!;
}
