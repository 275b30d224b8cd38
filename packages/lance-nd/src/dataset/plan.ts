/**
 * Planning a dataset: which table rows make it up and where each sits on the
 * grid, read without any value. One scan of `_rowid`, `__global_attrs__`,
 * each variable's `dim_names` / `dim_sizes` (nested projection) and the stats
 * columns; the rows are placed by their `chunk_offset` global attribute
 * (cell 0 when absent). The rows a `where` selects are a dataset of their
 * own: its grid starts at their smallest `chunk_offset` along each dim, and
 * they must not overlap; cells no row holds (rows removed, or not selected)
 * fail only the reads that need them (README "Datasets").
 */
import { DataType } from "apache-arrow";
import type { RecordBatch, Vector } from "apache-arrow";
import { CHUNK_OFFSET, GLOBAL_ATTRS_COLUMN, type Attrs, type Dim } from "@lance-nd/nd-arrow";
import { tilingProblem } from "@lance-nd/nd-arrow/internal";
import { decodeRows, selectName } from "@lance-nd/format";
import { statsColumnName } from "@lance-nd/stats";
import { LanceNdError } from "../errors.js";
import { SOURCE_FILE_ATTR } from "../write/concat-sources.js";
import { withPureErrors } from "../pure-errors.js";
import { ROW_ID } from "../read/read-plan.js";
import type { NdTable } from "../table.js";
import { planScan } from "./plan-scan.js";

/** One variable of a dataset. */
export interface DatasetVariable {
  /** The variable (array column) name. */
  readonly name: string;
  /** Its value type. */
  readonly type: DataType;
  /** Its dim names, in order. */
  readonly dims: readonly string[];
}

/** One table row of a dataset: where it sits on the grid. */
export interface PlannedRow {
  /** Lance's `_rowid` in the pinned version. */
  rowId: bigint;
  /** The `id` global attribute, when the row has one. */
  id: string | undefined;
  /** Its start along each grid dim (grid order), from the grid's start: its `chunk_offset` less {@link DatasetPlan.origin}. */
  start: number[];
  /** Its size along each grid dim (grid order). */
  size: number[];
  /** `[min, max]` of each integer or float variable the table keeps stats for (null stats left out). */
  stats: Map<string, [number, number]>;
  /** The variables the row holds (a variable null in the row is left out). */
  variables: ReadonlySet<string>;
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
  const layout = view.layout;
  const names = [...layout.arrays.keys()];
  const stats = names.filter((name) => layout.statsColumns.has(name) && isNumber(layout.arrays.get(name)!.valueType));
  const columns = [
    ...names.flatMap((name) => [`${selectName(name)}.dim_names`, `${selectName(name)}.dim_sizes`]),
    ...stats.map((name) => selectName(statsColumnName(name))),
    ...(layout.globalAttrs === null ? [] : [GLOBAL_ATTRS_COLUMN]),
  ];
  const rows: PlannedRow[] = [];
  const dimsOf = new Map<string, string[]>();
  let globalAttrs: Attrs | undefined;
  let firstStart: number[] | undefined;
  let manyFiles = false;
  let gridNames: string[] | undefined;
  // Each row's own grid: rows of some of the variables (an import groups
  // variables on dims of their own: CLI README, "Rows of an import") have
  // grids that share no dim with each other.
  const rowGrids: string[][] = [];
  for (const rb of await planScan(view, columns, filter)) {
    const attrs = layout.globalAttrs === null ? undefined : decodeGlobalAttrs(view.uri, rb, columns.length - 1);
    const rowIds = rb.getChild(ROW_ID)!;
    for (let r = 0; r < rb.numRows; r++) {
      const rowId = rowIds.get(r) as bigint;
      const rowAttrs = attrs?.[r];
      const id = rowAttrs?.get("id")?.toJS();
      const grid = new Map<string, number>();
      const rowDims: [string, string[]][] = [];
      names.forEach((name, v) => {
        const dimNames = rb.getChildAt(2 * v)!.get(r) as Vector<never> | null;
        if (dimNames === null) return;
        const sizes = Array.from(rb.getChildAt(2 * v + 1)!.get(r) as Iterable<number>, Number);
        const dims = Array.from(dimNames as Iterable<string>);
        rowDims.push([name, dims]);
        dims.forEach((dim, k) => {
          const known = grid.get(dim);
          if (known !== undefined && known !== sizes[k]) {
            throw invalid(
              view,
              `row ${describeRow(rowId, id)}: dim "${dim}" has size ${known} and ${sizes[k]} in different variables`,
            );
          }
          grid.set(dim, sizes[k]!);
        });
      });
      const order = gridOrder(rowDims);
      gridNames ??= order;
      if (order.join("\u0000") !== gridNames.join("\u0000") && !disjointGrids(order, rowGrids)) {
        const first = describeRow(rows[0]!.rowId, rows[0]!.id);
        throw invalid(
          view,
          `rows have different grids: row ${first} has [${gridNames.join(", ")}], row ${describeRow(rowId, id)} has [${order.join(", ")}]`,
        );
      }
      for (const [name, dims] of rowDims) {
        const known = dimsOf.get(name);
        if (known === undefined) dimsOf.set(name, dims);
        else if (known.join("\u0000") !== dims.join("\u0000")) {
          throw invalid(
            view,
            `variable "${name}" has dims [${known.join(", ")}] in one row and [${dims.join(", ")}] in row ${describeRow(rowId, id)}`,
          );
        }
      }
      const rowStats = new Map<string, [number, number]>();
      stats.forEach((name, s) => {
        const value = rb.getChildAt(2 * names.length + s)!.get(r) as { min: unknown; max: unknown } | null;
        const min = value === null ? null : toNumber(value.min);
        const max = value === null ? null : toNumber(value.max);
        if (min !== null && max !== null) rowStats.set(name, [min, max]);
      });
      const start = chunkStart(view, rowAttrs, order, rowId, id);
      manyFiles ||= rowAttrs?.has(SOURCE_FILE_ATTR) === true;
      // The first row on the grid gives the dataset's global attributes (xarray's combine_attrs="override").
      if (globalAttrs === undefined || before(start, firstStart!)) {
        globalAttrs = withoutOffset(rowAttrs);
        firstStart = start;
      }
      rowGrids.push(order);
      rows.push({
        rowId,
        id: typeof id === "string" ? id : undefined,
        start,
        size: order.map((dim) => grid.get(dim)!),
        stats: rowStats,
        variables: new Set(rowDims.map(([name]) => name)),
      });
    }
  }
  if (rows.length === 0)
    throw invalid(view, `no row matches${filter === undefined ? "" : ` ${filter}`}: the dataset is empty`);
  checkOneDataset(view, rows);
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
  for (const group of gridGroups(rowGrids)) {
    const dims = group.dims.map((name) => order.indexOf(name));
    const pick = (values: readonly number[]) => dims.map((d) => values[d]!);
    checkRowsApart(
      view,
      dims.map((d) => grid[d]!),
      group.rows.map((r) => ({ ...rows[r]!, start: pick(rows[r]!.start), size: pick(rows[r]!.size) })),
      pick(origin),
    );
  }
  const variables = [...dimsOf].map(([name, dims]) => ({ name, type: layout.arrays.get(name)!.valueType, dims }));
  return { grid, origin, variables, rows, globalAttrs: globalAttrs ?? new Map(), manyFiles };
}

/** True when `grid` shares no dim with the grids before it that differ from it. */
function disjointGrids(grid: readonly string[], before: readonly (readonly string[])[]): boolean {
  const key = grid.join("\u0000");
  return before.every((other) => other.join("\u0000") === key || !other.some((dim) => grid.includes(dim)));
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

/** True when grid position `a` comes before `b` in row-major order. */
function before(a: readonly number[], b: readonly number[]): boolean {
  for (let d = 0; d < a.length; d++) if (a[d] !== b[d]) return a[d]! < b[d]!;
  return false;
}

/** The grid of a row as NdRecordBatch.grid orders it: the highest-rank variable's dims, then the rest in order. */
function gridOrder(rowDims: readonly [string, string[]][]): string[] {
  let widest: string[] = [];
  for (const [, dims] of rowDims) if (dims.length > widest.length) widest = dims;
  const order = new Set(widest);
  for (const [, dims] of rowDims) for (const dim of dims) order.add(dim);
  return [...order];
}

function decodeGlobalAttrs(uri: string, rb: RecordBatch, column: number): Attrs[] {
  return withPureErrors({ uri }, () => decodeRows(rb.selectAt([column])).map((row) => row.globalAttrs));
}

/** A row's `chunk_offset` along `grid` (zeros without one). */
function chunkStart(
  view: NdTable,
  attrs: Attrs | undefined,
  grid: readonly string[],
  rowId: bigint,
  id: unknown,
): number[] {
  const offset = attrs?.get(CHUNK_OFFSET);
  if (offset === undefined) return grid.map(() => 0);
  const values = offset.isList
    ? Array.from(offset.value as Iterable<number | bigint | null>, (v) => (v === null ? NaN : Number(v)))
    : [];
  if (values.length !== grid.length || values.some((v) => !Number.isSafeInteger(v) || v < 0)) {
    throw invalid(
      view,
      `row ${describeRow(rowId, id)}: "${CHUNK_OFFSET}" is ${String(offset.toJS())}, expected ${grid.length} non-negative starts for dims [${grid.join(", ")}]`,
    );
  }
  return values;
}

/** Rejects rows of several datasets: rows whose `id` global attributes differ. */
function checkOneDataset(view: NdTable, rows: readonly PlannedRow[]): void {
  const ids = [...new Set(rows.map((row) => row.id))];
  if (ids.length > 1) {
    const shown = ids.slice(0, 5).map((id) => (id === undefined ? "(no id)" : JSON.stringify(id)));
    throw invalid(
      view,
      `the rows hold ${ids.length} datasets (ids ${shown.join(", ")}${ids.length > 5 ? ", ..." : ""}); narrow the where to one id`,
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
  throw invalid(view, `rows overlap: ${where(rows[j]!)} and ${where(rows[i]!)} (a file imported twice?)`);
}

/** A row's global attributes as the dataset's: without its place (`chunk_offset`) or source file (README, "Many files, one dataset"). */
function withoutOffset(attrs: Attrs | undefined): Attrs {
  const out = new Map(attrs ?? []);
  out.delete(CHUNK_OFFSET);
  out.delete(SOURCE_FILE_ATTR);
  return out;
}

function isNumber(type: DataType): boolean {
  return DataType.isInt(type) || DataType.isFloat(type);
}

function toNumber(value: unknown): number | null {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  return null;
}

/** How errors name a row: its `_rowid` and `id`. */
export function describeRow(rowId: bigint, id: unknown): string {
  return `_rowid ${rowId}${id === undefined ? "" : ` (id ${JSON.stringify(id)})`}`;
}

function invalid(view: NdTable, message: string): LanceNdError {
  return new LanceNdError("InvalidInput", `dataset: ${message}`, { uri: view.uri });
}
