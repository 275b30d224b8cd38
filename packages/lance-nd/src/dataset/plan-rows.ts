/**
 * The rows of a dataset's plan as its scan reads them, without any value:
 * each row's `_rowid`, `id`, the dims and sizes of the variables it holds
 * (nested projection of `dim_names` / `dim_sizes`), its stats and its
 * `chunk_offset` (cell 0 when absent). Each row is checked against the
 * rows read before it: one size for each dim, one grid (or grids that share
 * no dim), the same dims for each variable. Placing the rows on the
 * dataset's grid is `plan.ts`'s (README "Datasets").
 */
import { DataType } from "apache-arrow";
import type { RecordBatch, Vector } from "apache-arrow";
import { CHUNK_OFFSET, GLOBAL_ATTRS_COLUMN, type Attrs } from "@lance-nd/nd-arrow";
import { decodeRows, selectName } from "@lance-nd/format";
import { statsColumnName } from "@lance-nd/stats";
import { LanceNdError } from "../errors.js";
import { SOURCE_FILE_ATTR } from "../write/concat-sources.js";
import { withPureErrors } from "../pure-errors.js";
import { ROW_ID } from "../read/read-plan.js";
import type { NdTable } from "../table.js";
import { planScan } from "./plan-scan.js";

/** One table row of a dataset: where it sits on the grid. */
export interface PlannedRow {
  /** Lance's `_rowid` in the pinned version. */
  rowId: bigint;
  /** The `id` global attribute, when the row has one. */
  id: string | undefined;
  /** Its start along each grid dim (grid order), from the grid's start: its `chunk_offset` less the grid's origin (`DatasetPlan.origin`, plan.ts). */
  start: number[];
  /** Its size along each grid dim (grid order). */
  size: number[];
  /** `[min, max]` of each integer or float variable the table keeps stats for (null stats left out). */
  stats: Map<string, [number, number]>;
  /** The variables the row holds (a variable null in the row is left out). */
  variables: ReadonlySet<string>;
}

/** The rows a plan's scan read, before they are placed on the dataset's grid. */
export interface ScannedRows {
  /** The rows, in table order, each not yet on the dataset's grid: `start` (its `chunk_offset`) and `size` along its own grid (its `rowGrids` entry). */
  rows: PlannedRow[];
  /**
   * Each row's own grid: rows of some of the variables (an import groups
   * variables on dims of their own: CLI README, "Rows of an import") have
   * grids that share no dim with each other.
   */
  rowGrids: string[][];
  /** The dims of each variable the rows hold, in the order the rows first hold them. */
  variableDims: Map<string, string[]>;
  /** The global attributes of the first row on the grid, without `chunk_offset` and `_SourceFile`. */
  globalAttrs: Attrs;
  /** True when the rows name their files (`_SourceFile`). */
  manyFiles: boolean;
}

/** What the planning scan reads: the variables' names, those with stats, and the columns in scan order. */
interface PlanColumns {
  names: string[];
  stats: string[];
  columns: string[];
}

/** One row's variables with their dims, and the size of each dim they have. */
interface RowShape {
  variableDims: [string, string[]][];
  sizes: Map<string, number>;
}

/**
 * Reads the rows of `view` (a pinned version) that match the Lance SQL
 * `filter` (all rows when undefined), each checked against the rows before
 * it.
 *
 * @throws LanceNdError `InvalidInput` when a dim has two sizes in a row, the
 * rows have differing grids, a variable has differing dims, or a row has a
 * bad `chunk_offset`.
 */
export async function scanPlannedRows(view: NdTable, filter: string | undefined): Promise<ScannedRows> {
  const { names, stats, columns } = planColumns(view);
  const scanned: ScannedRows = {
    rows: [],
    rowGrids: [],
    variableDims: new Map(),
    globalAttrs: new Map(),
    manyFiles: false,
  };
  let firstStart: number[] | undefined;
  for (const rb of await planScan(view, columns, filter)) {
    const attrs = view.layout.globalAttrs === null ? undefined : decodeGlobalAttrs(view.uri, rb, columns.length - 1);
    const rowIds = rb.getChild(ROW_ID)!;
    for (let r = 0; r < rb.numRows; r++) {
      const rowId = rowIds.get(r) as bigint;
      const rowAttrs = attrs?.[r];
      const id = rowAttrs?.get("id")?.toJS();
      const shape = readRowShape(view, rb, r, names, rowId, id);
      const order = gridOrder(shape.variableDims);
      checkSameGrid(view, scanned, order, rowId, id);
      recordVariableDims(view, scanned.variableDims, shape.variableDims, rowId, id);
      const rowStats = readRowStats(rb, r, stats, 2 * names.length);
      const start = chunkStart(view, rowAttrs, order, rowId, id);
      scanned.manyFiles ||= rowAttrs?.has(SOURCE_FILE_ATTR) === true;
      // The first row on the grid gives the dataset's global attributes (xarray's combine_attrs="override").
      if (firstStart === undefined || before(start, firstStart)) {
        scanned.globalAttrs = withoutOffset(rowAttrs);
        firstStart = start;
      }
      scanned.rowGrids.push(order);
      scanned.rows.push({
        rowId,
        id: typeof id === "string" ? id : undefined,
        start,
        size: order.map((dim) => shape.sizes.get(dim)!),
        stats: rowStats,
        variables: new Set(shape.variableDims.map(([name]) => name)),
      });
    }
  }
  return scanned;
}

/** How errors name a row: its `_rowid` and `id`. */
export function describeRow(rowId: bigint, id: unknown): string {
  return `_rowid ${rowId}${id === undefined ? "" : ` (id ${JSON.stringify(id)})`}`;
}

/** The error of rows that do not make one dataset. */
export function invalidRows(view: NdTable, message: string): LanceNdError {
  return new LanceNdError("InvalidInput", `dataset: ${message}`, { uri: view.uri });
}

/** The columns the planning scan reads: each variable's `dim_names` and `dim_sizes`, then its stats, then the global attributes. */
function planColumns(view: NdTable): PlanColumns {
  const layout = view.layout;
  const names = [...layout.arrays.keys()];
  const stats = names.filter((name) => layout.statsColumns.has(name) && isNumber(layout.arrays.get(name)!.valueType));
  const columns = [
    ...names.flatMap((name) => [`${selectName(name)}.dim_names`, `${selectName(name)}.dim_sizes`]),
    ...stats.map((name) => selectName(statsColumnName(name))),
    ...(layout.globalAttrs === null ? [] : [GLOBAL_ATTRS_COLUMN]),
  ];
  return { names, stats, columns };
}

/** Row `r`'s variables (those not null in it) with their dims, and each dim's size; a dim sized two ways fails. */
function readRowShape(
  view: NdTable,
  rb: RecordBatch,
  r: number,
  names: readonly string[],
  rowId: bigint,
  id: unknown,
): RowShape {
  const sizes = new Map<string, number>();
  const variableDims: [string, string[]][] = [];
  names.forEach((name, v) => {
    const dimNames = rb.getChildAt(2 * v)!.get(r) as Vector<never> | null;
    if (dimNames === null) return;
    const dimSizes = Array.from(rb.getChildAt(2 * v + 1)!.get(r) as Iterable<number>, Number);
    const dims = Array.from(dimNames as Iterable<string>);
    variableDims.push([name, dims]);
    dims.forEach((dim, k) => {
      const known = sizes.get(dim);
      if (known !== undefined && known !== dimSizes[k]) {
        throw invalidRows(
          view,
          `row ${describeRow(rowId, id)}: dim "${dim}" has size ${known} and ${dimSizes[k]} in different variables`,
        );
      }
      sizes.set(dim, dimSizes[k]!);
    });
  });
  return { variableDims, sizes };
}

/** Rejects a row whose grid `order` differs from the first row's, unless it shares no dim with the other grids. */
function checkSameGrid(
  view: NdTable,
  scanned: ScannedRows,
  order: readonly string[],
  rowId: bigint,
  id: unknown,
): void {
  const first = scanned.rowGrids[0] ?? order;
  if (order.join("\u0000") === first.join("\u0000") || disjointGrids(order, scanned.rowGrids)) return;
  const firstRow = describeRow(scanned.rows[0]!.rowId, scanned.rows[0]!.id);
  throw invalidRows(
    view,
    `rows have different grids: row ${firstRow} has [${first.join(", ")}], row ${describeRow(rowId, id)} has [${order.join(", ")}]`,
  );
}

/** Records each variable's dims from its first row; rejects a variable whose dims differ in a later row. */
function recordVariableDims(
  view: NdTable,
  known: Map<string, string[]>,
  variableDims: readonly [string, string[]][],
  rowId: bigint,
  id: unknown,
): void {
  for (const [name, dims] of variableDims) {
    const seen = known.get(name);
    if (seen === undefined) known.set(name, dims);
    else if (seen.join("\u0000") !== dims.join("\u0000")) {
      throw invalidRows(
        view,
        `variable "${name}" has dims [${seen.join(", ")}] in one row and [${dims.join(", ")}] in row ${describeRow(rowId, id)}`,
      );
    }
  }
}

/** Row `r`'s `[min, max]` of each variable in `stats`, whose stats columns start at `firstColumn` (null stats left out). */
function readRowStats(
  rb: RecordBatch,
  r: number,
  stats: readonly string[],
  firstColumn: number,
): Map<string, [number, number]> {
  const rowStats = new Map<string, [number, number]>();
  stats.forEach((name, s) => {
    const value = rb.getChildAt(firstColumn + s)!.get(r) as { min: unknown; max: unknown } | null;
    const min = value === null ? null : toNumber(value.min);
    const max = value === null ? null : toNumber(value.max);
    if (min !== null && max !== null) rowStats.set(name, [min, max]);
  });
  return rowStats;
}

/** True when `grid` shares no dim with the grids before it that differ from it. */
function disjointGrids(grid: readonly string[], before: readonly (readonly string[])[]): boolean {
  const key = grid.join("\u0000");
  return before.every((other) => other.join("\u0000") === key || !other.some((dim) => grid.includes(dim)));
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
    throw invalidRows(
      view,
      `row ${describeRow(rowId, id)}: "${CHUNK_OFFSET}" is ${String(offset.toJS())}, expected ${grid.length} non-negative starts for dims [${grid.join(", ")}]`,
    );
  }
  return values;
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
