/**
 * Taking a dataset's rows by row id (`takeRowIds`) with only the requested
 * variables, in groups that hold at most about a byte budget of values (one
 * SDK call costs a few ms, so a window over several small chunks takes them
 * together).
 */
import { DataType, Precision, type Float } from "apache-arrow";
import { GLOBAL_ATTRS_COLUMN, type NdRecordBatch } from "@lance-nd/nd-arrow";
import { decodeRows, selectName } from "@lance-nd/format";
import { LanceNdError } from "../errors.js";
import { withPureErrors } from "../pure-errors.js";
import type { NdTable } from "../table.js";
import { takeRows } from "../lance/table-read.js";
import { describeRow, type DatasetPlan, type PlannedRow } from "./plan.js";

/** A row taken: where it sits, and its requested variables and global attributes. */
export interface TakenRow {
  row: PlannedRow;
  batch: NdRecordBatch;
}

/**
 * `rows` taken in order of the groups, each group at most `maxBytes` of
 * values (uncompressed, estimated from the rows' dim sizes; at least one
 * row). Rows come back in row id order within a group.
 *
 * @throws LanceNdError `InvalidInput` naming the row when a row lacks one of
 * `names` (a null array) or is gone from the pinned version.
 */
export async function* takeGroups(
  view: NdTable,
  plan: DatasetPlan,
  rows: readonly PlannedRow[],
  names: readonly string[],
  maxBytes: number,
): AsyncGenerator<TakenRow[]> {
  const columns = [...names.map(selectName), ...(view.layout.globalAttrs === null ? [] : [GLOBAL_ATTRS_COLUMN])];
  const variables = names.map((name) => plan.variables.find((v) => v.name === name)!);
  const position = new Map(plan.grid.map((d, i) => [d.name, i]));
  const bytesOf = (row: PlannedRow) =>
    variables.reduce(
      (sum, v) => sum + valueBytes(v.type) * v.dims.reduce((n, dim) => n * row.size[position.get(dim)!]!, 1),
      0,
    );
  let group: PlannedRow[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = bytesOf(row);
    if (group.length > 0 && bytes + size > maxBytes) {
      yield await take(view, group, columns, names);
      group = [];
      bytes = 0;
    }
    group.push(row);
    bytes += size;
  }
  if (group.length > 0) yield await take(view, group, columns, names);
}

async function take(
  view: NdTable,
  group: readonly PlannedRow[],
  columns: readonly string[],
  names: readonly string[],
): Promise<TakenRow[]> {
  const sorted = [...group].sort((a, b) => (a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0));
  const batches = await takeRows(
    view.lance,
    sorted.map((row) => row.rowId),
    columns,
  );
  const decoded = withPureErrors({ uri: view.uri }, () => batches.flatMap((rb) => decodeRows(rb)));
  if (decoded.length !== sorted.length) {
    const row = sorted[decoded.length] ?? sorted[0]!;
    throw new LanceNdError(
      "InvalidInput",
      `dataset: ${describeRow(row.rowId, row.id)} is gone from the pinned version`,
      { uri: view.uri },
    );
  }
  return sorted.map((row, i) => {
    const batch = decoded[i]!;
    const missing = names.find((name) => !batch.has(name));
    if (missing !== undefined) {
      const message = `dataset: ${describeRow(row.rowId, row.id)} has no "${missing}" (null in this row)`;
      throw new LanceNdError("InvalidInput", message, { uri: view.uri, column: missing });
    }
    return { row, batch };
  });
}

/** Bytes per value of `type`, for the budget (variable-width values count 16). */
function valueBytes(type: DataType): number {
  if (DataType.isFloat(type))
    return [2, 4, 8][
      (type as Float).precision === Precision.HALF ? 0 : (type as Float).precision === Precision.SINGLE ? 1 : 2
    ]!;
  const bits = (type as { bitWidth?: number }).bitWidth;
  if (DataType.isBool(type)) return 1 / 8;
  return typeof bits === "number"
    ? bits / 8
    : DataType.isUtf8(type) || DataType.isBinary(type) || DataType.isLargeUtf8(type)
      ? 16
      : 8;
}
