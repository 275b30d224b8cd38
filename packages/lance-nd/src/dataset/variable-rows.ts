/**
 * Which rows a read takes each variable from. Rows tile the grid, but a
 * variable that lacks some of its dims is held whole along them by every
 * row: rows that differ only along those dims hold the same pieces of it,
 * and rows cut at different places along the other dims hold pieces that
 * overlap. A read takes a variable from rows whose pieces tile the
 * selection along the variable's own dims: for rows that tile the grid, the
 * rows at the selection's first cell along the dims the variable lacks. Rows
 * where the variable is null hold no piece of it.
 */
import type { DatasetPlan } from "./plan.js";
import type { PlannedRow } from "./plan-rows.js";
import type { DimRange } from "./selection.js";

/** Variables read from the same rows: one set of dims, held by the same rows. */
export interface VariableRows {
  /** The variables, in the order asked. */
  readonly names: readonly string[];
  /** The grid positions of their dims. */
  readonly dims: ReadonlySet<number>;
  /** The rows to take them from: they hold them, meet the selection along `dims`, and do not overlap along `dims`. */
  readonly rows: readonly PlannedRow[];
  /** True when `rows` cover every cell of the selection along `dims` (false only where rows lack the variables). */
  readonly covered: boolean;
  /** The rows that meet the selection along `dims` but lack the variables. */
  readonly lacking: readonly PlannedRow[];
}

/**
 * `names` grouped by their dims and the rows holding them, each group with
 * the rows to read it from over `ranges` (what `read` assembles).
 */
export function variableRows(plan: DatasetPlan, ranges: readonly DimRange[], names: readonly string[]): VariableRows[] {
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const lacking = plan.rows.filter((row) => !row.variables.has(name)).map((row) => row.rowId);
    const key = `${[...dimsOf(plan, [name])].sort((a, b) => a - b).join(",")}|${lacking.join(",")}`;
    groups.set(key, [...(groups.get(key) ?? []), name]);
  }
  return [...groups.values()].map((group) => blockRows(plan, ranges, group));
}

/**
 * The rows to read all of `names` from over `ranges` (one block a row, as
 * `blocks` yields them): rows that hold every one of them, tiling the
 * selection along the dims any of them has (all rows meeting it, when one
 * of them has every grid dim), rows that meet the selection along every
 * dim first (the rows the variables with every dim are read from, so one
 * take reads them all: `read-takes.ts`). Along a dim selected empty the cell at the
 * selection's start (or the last cell) stands in: its rows give the types
 * and attributes, and the whole window of any variable without that dim.
 */
export function blockRows(plan: DatasetPlan, ranges: readonly DimRange[], names: readonly string[]): VariableRows {
  const dims = dimsOf(plan, names);
  const probe = probeBox(plan, ranges);
  const span = rowSpan(plan);
  const meeting = plan.rows.filter((row) => [...dims].every((d) => meetsAlong(span, row, d, probe[d]!)));
  const holds = (row: PlannedRow) => names.every((name) => row.variables.has(name));
  const inBox = meeting.filter((row) => holds(row) && probe.every((along, d) => meetsAlong(span, row, d, along)));
  const boxed = tileAlong(span, inBox, dims, probe);
  const { rows, covered } = boxed.covered ? boxed : tileAlong(span, meeting.filter(holds), dims, probe);
  return { names, dims, rows, covered, lacking: meeting.filter((row) => !holds(row)) };
}

/**
 * A row's extent along a grid dim, for finding the rows of a selection:
 * its size, or 1 along a dim of size 0 (every row holds it empty and
 * stands for its one stand-in cell, as `probeBox` makes it).
 */
export type RowSpan = (row: PlannedRow, d: number) => number;

/** The {@link RowSpan} of `plan`'s rows. */
export function rowSpan(plan: DatasetPlan): RowSpan {
  return (row, d) => (plan.grid[d]!.size === 0 ? 1 : row.size[d]!);
}

/** The grid positions of the dims of `names`. */
function dimsOf(plan: DatasetPlan, names: readonly string[]): Set<number> {
  const position = new Map(plan.grid.map((d, k) => [d.name, k]));
  return new Set(
    names.flatMap((name) => plan.variables.find((v) => v.name === name)!.dims.map((d) => position.get(d)!)),
  );
}

/**
 * The selection's box on the grid, a dim selected empty standing for the
 * cell at its start (or the last cell; cell 0 of a dim of size 0).
 */
export function probeBox(plan: DatasetPlan, ranges: readonly DimRange[]): [number, number][] {
  return ranges.map((r, d) => {
    if (r.start < r.stop) return [r.start, r.stop];
    const at = Math.max(0, Math.min(r.start, plan.grid[d]!.size - 1));
    return [at, at + 1];
  });
}

function meetsAlong(span: RowSpan, row: PlannedRow, d: number, [a, b]: readonly [number, number]): boolean {
  return row.start[d]! < b && a < row.start[d]! + span(row, d);
}

/**
 * Rows of `candidates` (all meeting `probe` along `dims`) that do not
 * overlap along `dims`, taken in row-major order of their starts along the
 * other dims: for rows that tile the grid, the first ones are those at the
 * grid's first cell along the other dims, which tile the probe along
 * `dims`, and the walk stops there. `covered` when they fill the probe.
 */
function tileAlong(
  span: RowSpan,
  candidates: readonly PlannedRow[],
  dims: ReadonlySet<number>,
  probe: readonly [number, number][],
): { rows: PlannedRow[]; covered: boolean } {
  const own = [...dims];
  const volume = own.reduce((n, d) => n * (probe[d]![1] - probe[d]![0]), 1);
  const other = probe.map((_, d) => d).filter((d) => !dims.has(d));
  const sorted =
    other.length === 0
      ? candidates
      : [...candidates].sort((a, b) => {
          for (const d of other) if (a.start[d] !== b.start[d]) return a.start[d]! - b.start[d]!;
          return 0;
        });
  const rows: PlannedRow[] = [];
  // The rows kept, by their start along the other dims: rows that tile the grid and start at the
  // same place along the other dims share a cell there, so they never overlap along `dims`.
  const kept = new Map<string, PlannedRow[]>();
  let filled = 0;
  for (const row of sorted) {
    if (filled === volume) break;
    const key = other.map((d) => row.start[d]).join(",");
    const overlaps = [...kept].some(
      ([at, same]) => at !== key && same.some((k) => own.every((d) => overlapAlong(span, k, row, d))),
    );
    if (overlaps) continue;
    rows.push(row);
    const same = kept.get(key);
    if (same === undefined) kept.set(key, [row]);
    else same.push(row);
    filled += own.reduce(
      (n, d) => n * (Math.min(probe[d]![1], row.start[d]! + span(row, d)) - Math.max(probe[d]![0], row.start[d]!)),
      1,
    );
  }
  return { rows, covered: filled === volume };
}

function overlapAlong(span: RowSpan, a: PlannedRow, b: PlannedRow, d: number): boolean {
  return a.start[d]! < b.start[d]! + span(b, d) && b.start[d]! < a.start[d]! + span(a, d);
}
