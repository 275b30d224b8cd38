/**
 * The rows of a dataset read taken in groups of about a byte budget, one
 * take a group (take-read.ts), each row checked to hold what the read needs
 * of it. A take reads only the variables' columns: the rows' global
 * attributes are the plan's (read.ts places every row with them).
 */
import type { RecordBatch } from "apache-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { decodeRows, selectName } from "@lance-nd/format";
import { LanceNdError } from "../errors.js";
import { withPureErrors } from "../pure-errors.js";
import type { NdTable } from "../table.js";
import { takeRuns } from "../read/take-read.js";
import type { DatasetPlan } from "./plan.js";
import { describeRow, type PlannedRow } from "./plan-rows.js";
import { heldValueBytes } from "./row-bytes.js";

/** A row of a dataset read, taken: where it sits, and its requested variables (no global attributes: the plan has them). */
export interface TakenRow {
  row: PlannedRow;
  batch: NdRecordBatch;
}

/**
 * The dataset rows `rows` taken in groups (in the order of `rows`), each
 * group at most `maxBytes` of values (uncompressed, estimated from the rows'
 * dim sizes, of the variables of `names` each row holds; at least one row),
 * one take a group of the variables `names`, the next one only when the
 * consumer asks for it (a window holds its groups). Rows come back in row id
 * order within a group.
 *
 * @throws LanceNdError `InvalidInput` naming the row when a row lacks one of
 * the variables it is read for (`neededOf`, default `names`: a null array)
 * or is gone from the pinned version.
 */
export function takeGroups(
  view: NdTable,
  plan: DatasetPlan,
  rows: readonly PlannedRow[],
  names: readonly string[],
  maxBytes: number,
  neededOf: (row: PlannedRow) => readonly string[] = () => names,
): AsyncGenerator<TakenRow[]> {
  // No `__global_attrs__`: a read gives the plan's global attributes (read.ts), and the
  // column's leaves cost a take as much as a few hundred KiB of values.
  const columns = names.map(selectName);
  const bytesOf = heldValueBytes(plan, names);
  return takeRuns(view.lance, groupsOf(rows, bytesOf, maxBytes), columns, 0, (batches, run) =>
    checkedRows(view, run.rows, batches, neededOf),
  );
}

/** `rows` cut into groups of at most `maxBytes` (at least one row each), each sorted by row id. */
function* groupsOf(
  rows: readonly PlannedRow[],
  bytesOf: (row: PlannedRow) => number,
  maxBytes: number,
): Generator<{ rowIds: bigint[]; rows: PlannedRow[] }> {
  const sorted = (group: PlannedRow[]) => {
    const rows = [...group].sort((a, b) => (a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0));
    return { rowIds: rows.map((row) => row.rowId), rows };
  };
  let group: PlannedRow[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = bytesOf(row);
    if (group.length > 0 && bytes + size > maxBytes) {
      yield sorted(group);
      group = [];
      bytes = 0;
    }
    group.push(row);
    bytes += size;
  }
  if (group.length > 0) yield sorted(group);
}

/** The taken `batches` of `sorted` (rows in row id order) decoded, each checked to hold what it is read for. */
function checkedRows(
  view: NdTable,
  sorted: readonly PlannedRow[],
  batches: readonly RecordBatch[],
  neededOf: (row: PlannedRow) => readonly string[],
): TakenRow[] {
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
    const missing = neededOf(row).find((name) => !batch.has(name));
    if (missing !== undefined) {
      const message = `dataset: ${describeRow(row.rowId, row.id)} has no "${missing}" (null in this row)`;
      throw new LanceNdError("InvalidInput", message, { uri: view.uri, column: missing });
    }
    return { row, batch };
  });
}
