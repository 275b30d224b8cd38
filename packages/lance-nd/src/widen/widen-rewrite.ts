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
  Schema,
  Struct,
  vectorFromArray,
  type Data,
  type Field,
} from "apache-arrow";
import { overwriteTable, type LanceTable } from "../lance/table-open.js";
import { sdkCall } from "../lance/sdk-call.js";
import { scanRows } from "../lance/table-read.js";
import { currentVersion } from "../lance/table-versions.js";
import { closeReplay } from "./widen-replay-append.js";
import { newReplayRecord, withReplayRecord, type RewriteHooks } from "./widen-replay-record.js";
import { collectRowIds, replayOverwritten } from "./widen-window.js";

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
 * were read (measured: SDK 0.39 reports no conflict). Those commits are
 * replayed after it by stable row id (widen-window.ts): the rows they
 * deleted are deleted again, the rows they appended appended again, cast.
 * The overwrite carries the record of that replay in its schema metadata
 * (widen-replay-record.ts), and the replay's last commit closes it (one
 * metadata-only commit even when there was nothing to replay), so a
 * process that meets an unfinished replay completes it (widen-replay.ts).
 *
 * @throws LanceNdError `CommitConflict` (retryable) when a commit in that
 * window changed the schema: the rewrite is undone first.
 */
export async function rewriteWidened(
  table: LanceTable,
  schema: Schema,
  widening: Widening,
  hooks: RewriteHooks = {},
): Promise<number> {
  const read = await currentVersion(table);
  const record = newReplayRecord(read, widening.column);
  const widened = new Schema(schema.fields, withReplayRecord(schema.metadata, record));
  const cast = (batch: RecordBatch) => castBatch(batch, widened, widening);
  const rows: RecordBatch[] = [];
  const readIds: bigint[] = [];
  for await (const batch of scanRows(table, { version: read, withRowId: true })) {
    collectRowIds(batch, readIds);
    rows.push(cast(batch));
  }
  await hooks.afterRead?.(read);
  const overwrite = await overwriteTable(table, widened, rows);
  await sdkCall({ uri: table.uri, op: "refresh" }, () => table.sdk.checkoutLatest());
  await hooks.afterStep?.("overwrite");
  if (overwrite === read + 1) return closeReplay(table, record);
  return replayOverwritten(table, { record, overwrite, readIds, widened, cast }, hooks);
}

/** One scanned batch under the widened schema: the variable's values and stats cast, other columns as they are. */
export function castBatch(batch: RecordBatch, schema: Schema, widening: Widening): RecordBatch {
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
