/**
 * Planning a dataset: which table rows make it up and where each sits on the
 * grid, read without any value. The rows come from one scan
 * (`plan-rows.ts`) and are placed by their `chunk_offset` global attribute
 * (cell 0 when absent). The rows a `where` selects are a dataset of their
 * own: its grid starts at their smallest `chunk_offset` along each dim, and
 * they must not overlap; cells no row holds (rows removed, or not selected)
 * fail only the reads that need them (README "Datasets").
 */
import type { DataType } from "apache-arrow";
import type { Attrs, Dim } from "@lance-nd/nd-arrow";
import { tilingProblem } from "@lance-nd/nd-arrow/internal";
import type { NdTable } from "../table.js";
import { describeRow, invalidRows, scanPlannedRows, type PlannedRow } from "./plan-rows.js";

/** One variable of a dataset. */
export interface DatasetVariable {
  /** The variable (array column) name. */
  readonly name: string;
  /** Its value type. */
  readonly type: DataType;
  /** Its dim names, in order. */
  readonly dims: readonly string[];
}

/** A dataset's rows and grid, in one table version. */
export interface DatasetPlan {
  /** The whole dataset's grid: from the rows' smallest start to their largest end along each dim. */
  grid: Dim[];
  /** The smallest `chunk_offset` of the rows along each grid dim: where the grid starts in the rows' frame. */
  origin: number[];
  /** The variables the rows hold. */
  variables: DatasetVariable[];
  /** The rows, in table order. */
  rows: PlannedRow[];
  /** The global attributes of the first row on the grid, without `chunk_offset` and `_SourceFile`. */
  globalAttrs: Attrs;
  /** True when the rows name their files (`_SourceFile`): attributes may differ between files. */
  manyFiles: boolean;
}

/**
 * Plans the dataset of the rows of `view` (a pinned version) that match the
 * Lance SQL `filter` (all rows when undefined).
 *
 * @throws LanceNdError `InvalidInput` when no row matches, when the rows hold
 * several datasets (different `id`s), differing grids, a bad `chunk_offset`,
 * or overlap (naming the rows' ids and offsets).
 */
export async function planDataset(view: NdTable, filter: string | undefined): Promise<DatasetPlan> {
  const { rows, rowGrids, variableDims, globalAttrs, manyFiles } = await scanPlannedRows(view, filter);
  if (rows.length === 0)
    throw invalidRows(view, `no row matches${filter === undefined ? "" : ` ${filter}`}: the dataset is empty`);
  checkOneDataset(view, rows);
  const { grid, origin } = placeOnGrid(rows, rowGrids);
  checkGroupsApart(view, grid, origin, rows, rowGrids);
  const variables = [...variableDims].map(([name, dims]) => ({
    name,
    type: view.layout.arrays.get(name)!.valueType,
    dims,
  }));
  return { grid, origin, variables, rows, globalAttrs, manyFiles };
}

/**
 * Places the rows on the dataset's grid, the union of their own grids: each
 * row's start and size along every grid dim, its start from the grid's
 * origin (the rows' smallest `chunk_offset` along each dim), and the grid
 * from the origin to the rows' largest end.
 */
function placeOnGrid(rows: PlannedRow[], rowGrids: readonly (readonly string[])[]): { grid: Dim[]; origin: number[] } {
  const order = [...new Set(rowGrids.flat())];
  unifyGrids(rows, rowGrids, order);
  const origin = order.map((_, d) => rows.reduce((low, row) => Math.min(low, row.start[d]!), Infinity));
  for (const row of rows) row.start = row.start.map((s, d) => s - origin[d]!);
  const grid = order.map((name, d) => ({
    name,
    size: rows.reduce((high, row) => Math.max(high, row.start[d]! + row.size[d]!), 0),
  }));
  // Along a dim it lacks, a row holds its variables whole: it spans the grid.
  rows.forEach((row, r) => {
    grid.forEach((dim, d) => {
      if (!rowGrids[r]!.includes(dim.name)) row.size[d] = dim.size;
    });
  });
  return { grid, origin };
}

/**
 * Places each row's start and size (on its own grid) on `order`, the union
 * of the rows' grids: along a dim the row lacks, start 0 (its size is set
 * once the grid's size is known).
 */
function unifyGrids(rows: PlannedRow[], rowGrids: readonly (readonly string[])[], order: readonly string[]): void {
  rows.forEach((row, r) => {
    const own = rowGrids[r]!;
    if (own.length === order.length) return;
    row.start = order.map((name) => (own.includes(name) ? row.start[own.indexOf(name)]! : 0));
    row.size = order.map((name) => (own.includes(name) ? row.size[own.indexOf(name)]! : 0));
  });
}

/** The rows (indices) by their own grid, each group with its dims. */
function gridGroups(rowGrids: readonly (readonly string[])[]): { dims: readonly string[]; rows: number[] }[] {
  const groups = new Map<string, { dims: readonly string[]; rows: number[] }>();
  rowGrids.forEach((dims, r) => {
    const key = dims.join("\u0000");
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { dims, rows: [r] });
    else group.rows.push(r);
  });
  return [...groups.values()];
}

/** Rejects rows of several datasets: rows whose `id` global attributes differ. */
function checkOneDataset(view: NdTable, rows: readonly PlannedRow[]): void {
  const ids = [...new Set(rows.map((row) => row.id))];
  if (ids.length > 1) {
    const shown = ids.slice(0, 5).map((id) => (id === undefined ? "(no id)" : JSON.stringify(id)));
    throw invalidRows(
      view,
      `the rows hold ${ids.length} datasets (ids ${shown.join(", ")}${ids.length > 5 ? ", ..." : ""}); narrow the where to one id`,
    );
  }
}

/**
 * Rejects rows that overlap among the rows of one own grid: rows of grids
 * that share no dim hold different variables and may cover the same cells.
 */
function checkGroupsApart(
  view: NdTable,
  grid: readonly Dim[],
  origin: readonly number[],
  rows: readonly PlannedRow[],
  rowGrids: readonly (readonly string[])[],
): void {
  for (const group of gridGroups(rowGrids)) {
    const dims = group.dims.map((name) => grid.findIndex((dim) => dim.name === name));
    const pick = (values: readonly number[]) => dims.map((d) => values[d]!);
    checkRowsApart(
      view,
      dims.map((d) => grid[d]!),
      group.rows.map((r) => ({ ...rows[r]!, start: pick(rows[r]!.start), size: pick(rows[r]!.size) })),
      pick(origin),
    );
  }
}

/**
 * Rejects rows that overlap, naming the rows and their offsets (`chunk_offset`,
 * as stored). A gap is no error here: only a read that needs its cells fails
 * (`missing-cells.ts`).
 */
function checkRowsApart(
  view: NdTable,
  grid: readonly Dim[],
  rows: readonly PlannedRow[],
  origin: readonly number[],
): void {
  const box = grid.map((d) => [0, d.size] as [number, number]);
  const problem = tilingProblem(
    box,
    rows.map((row) => row.start),
    rows.map((row) => row.size),
  );
  if (problem?.kind !== "overlap") return;
  const where = (row: PlannedRow) =>
    `${describeRow(row.rowId, row.id)} at offset [${row.start.map((s, d) => s + origin[d]!).join(", ")}] (size [${row.size.join(", ")}])`;
  const [i, j] = problem.boxes;
  throw invalidRows(view, `rows overlap: ${where(rows[j]!)} and ${where(rows[i]!)} (a file imported twice?)`);
}
