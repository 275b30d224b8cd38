/**
 * One cell of each variable of a dataset, read in the first row on the
 * grid that holds it: the variable's type, dims and attributes as a whole
 * read gives them (the first file's: README "Many files, one dataset"),
 * for what needs them before reading values (the Zarr store's metadata,
 * the dataset's `NdSource`).
 */
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { Dataset } from "./dataset.js";
import type { DatasetPlan } from "./plan.js";
import type { PlannedRow } from "./plan-rows.js";

/**
 * One cell of each variable of `plan` (table names), read through
 * `dataset` (a view of the whole plan, no selection) in the first row on
 * the grid that holds it; variables whose first row is the same are read
 * together, one batch a row.
 */
export async function* firstCells(plan: DatasetPlan, dataset: Dataset): AsyncGenerator<NdRecordBatch> {
  const byRow = new Map<PlannedRow, string[]>();
  for (const { name } of plan.variables) {
    let first: PlannedRow | undefined;
    for (const row of plan.rows)
      if (row.variables.has(name) && (first === undefined || before(row, first))) first = row;
    if (first !== undefined) byRow.set(first, [...(byRow.get(first) ?? []), name]);
  }
  for (const [row, names] of byRow) {
    const cell = Object.fromEntries(
      plan.grid.map((d, k) => [d.name, [row.start[k]!, row.start[k]! + Math.min(1, row.size[k]!)] as [number, number]]),
    );
    yield await dataset.isel(cell).read(names);
  }
}

/** True when row `a` starts before row `b` in row-major order of the grid. */
function before(a: PlannedRow, b: PlannedRow): boolean {
  const d = a.start.findIndex((s, k) => s !== b.start[k]);
  return d >= 0 && a.start[d]! < b.start[d]!;
}
