/**
 * The planning scan of a dataset: `columns` and `_rowid` of the rows a
 * Lance SQL filter selects. Lance 12 fails a filtered scan that projects a
 * struct column (`__global_attrs__`) when fragments written before new
 * children were added to it hold matching rows ("projection supplied fewer
 * column indices than its fields require"; SDK-NOTES.md section 3, "Adding
 * columns"): a `rechunk` or an import that brings a new global attribute
 * adds such children. Then the rows' ids come from a filtered scan that
 * projects no struct, and their columns from takes by id, which read
 * those fragments well.
 *
 * On a wide table whose projection would take longer to plan than reading
 * every column (`../lance/wide-projection.ts`), the scan reads every column
 * and keeps the projected ones.
 */
import type { RecordBatch } from "apache-arrow";
import { isLanceNdError } from "../errors.js";
import { ROW_ID } from "../read/read-plan.js";
import { scanRows, takeRows } from "../lance/table-read.js";
import { pickColumns, readsWholeRows } from "../lance/wide-projection.js";
import type { NdTable } from "../table.js";

/** Rows read at once when the plan reads whole rows (a row of an import holds about 1 MiB). */
const WHOLE_ROWS_PER_BATCH = 64;

/** Row ids taken per SDK call by the fallback. */
const TAKE_IDS = 8192;

/** The batches of `columns` plus `_rowid` of the rows of `view` that `filter` selects (all rows when undefined). */
export async function planScan(
  view: NdTable,
  columns: readonly string[],
  filter: string | undefined,
): Promise<RecordBatch[]> {
  const batches: RecordBatch[] = [];
  if (await readsWholeRows(view.lance, view.tableSchema, columns)) {
    const options = {
      withRowId: true,
      maxBatchLength: WHOLE_ROWS_PER_BATCH,
      ...(filter === undefined ? {} : { filter }),
    };
    for await (const rb of scanRows(view.lance, options)) batches.push(pickColumns(rb, columns));
    return batches;
  }
  try {
    for await (const rb of scanRows(view.lance, {
      columns: [...columns],
      withRowId: true,
      ...(filter === undefined ? {} : { filter }),
    }))
      batches.push(rb);
    return batches;
  } catch (err) {
    if (filter === undefined || !isLanceNdError(err) || !/fewer column indices/.test(err.message)) throw err;
  }
  const ids: bigint[] = [];
  for await (const rb of scanRows(view.lance, { columns: [ROW_ID], withRowId: true, filter })) {
    const column = rb.getChild(ROW_ID)!;
    for (let r = 0; r < rb.numRows; r++) ids.push(column.get(r) as bigint);
  }
  const taken: RecordBatch[] = [];
  for (let at = 0; at < ids.length; at += TAKE_IDS) {
    taken.push(...(await takeRows(view.lance, ids.slice(at, at + TAKE_IDS), columns, true)));
  }
  return taken;
}
