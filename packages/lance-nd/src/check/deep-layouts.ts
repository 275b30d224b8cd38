/**
 * `check --deep` on layouts (README "Layouts", "check"): each current layout
 * of a dataset is read region by region beside its source dataset, and
 * every value of every variable must be the same in both. A region is whole
 * chunks of the layout, at most {@link LAYOUT_COMPARE_BYTES} of values a
 * side, so memory follows the region and never the dataset. Stale layouts
 * are never read, so they are not compared: they are listed in the notes.
 */
import { GLOBAL_ATTRS_COLUMN, type NdRecordBatch } from "@lance-nd/nd-arrow";
import type { Vector } from "apache-arrow";
import { isLanceNdError } from "../errors.js";
import { col } from "../read/expr.js";
import { planRead } from "../read/read-plan.js";
import type { LanceTable } from "../lance/table-open.js";
import { NdTable } from "../table.js";
import { planDataset, type DatasetPlan } from "../dataset/plan.js";
import { readWindow } from "../dataset/read.js";
import type { DimRange } from "../dataset/selection.js";
import { valueBytes } from "../dataset/row-bytes.js";
import { blockBytes, slabs } from "../layout/chunk-shape.js";
import { datasetLayouts, layoutSources } from "../dataset/current-layouts.js";
import type { CheckReport } from "./report.js";
import { withoutPlace } from "./version-health.js";

/** 16 MiB: the most values `check --deep` reads at once from a layout (and as much from its source). */
const LAYOUT_COMPARE_BYTES = 16 * 1024 * 1024;

/** A region of a current layout whose values are not its source dataset's. */
export interface LayoutMismatch {
  /** The id of the source dataset. */
  id: string;
  /** The layout's name (its rows have the id `<id>@<layout>`). */
  layout: string;
  /** The variable. */
  variable: string;
  /** The region compared, `[start, stop)` per dim of the dataset's grid. */
  region: Record<string, [number, number]>;
  /** Why: the first cell that differs and how many do, or the error reading the region. */
  problem: string;
}

/** What {@link compareLayouts} found. */
export interface LayoutComparison {
  /** The regions of current layouts whose values differ from their source's. */
  mismatches: LayoutMismatch[];
  /** The layouts not compared and why (stale, or their dataset's rows do not plan). */
  notes: string[];
}

/**
 * Sets the report's `layoutMismatches` for `table` (the checked version),
 * with a note for each layout not compared; for a table that does not open
 * as a lance-nd table, a note and no comparison.
 */
export async function noteLayoutMismatches(table: LanceTable, report: CheckReport): Promise<void> {
  let view: NdTable;
  try {
    view = await NdTable.fromLance(table);
  } catch (err) {
    if (!isLanceNdError(err, "InvalidTable")) throw err;
    report.notes.push(`layouts were not compared: ${withoutPlace(err, report.uri)}`);
    return;
  }
  const { mismatches, notes } = await compareLayouts(view);
  report.layoutMismatches = mismatches;
  report.notes.push(...notes);
}

/**
 * Compares every current layout of every dataset of `view` (a pinned
 * version) with its source dataset, value by value, `budget` bytes of
 * values a side at a time.
 */
export async function compareLayouts(view: NdTable, budget = LAYOUT_COMPARE_BYTES): Promise<LayoutComparison> {
  const out: LayoutComparison = { mismatches: [], notes: [] };
  for (const id of await layoutSources(view)) {
    const source = await sourcePlan(view, id);
    if (typeof source === "string") {
      out.notes.push(`the layouts of "${id}" were not compared: ${source}`);
      continue;
    }
    for (const layout of await datasetLayouts(view, id, source)) {
      if (layout.plan === null)
        out.notes.push(`layout "${layout.name}" of "${id}" is stale (${layout.stale}): not compared`);
      else
        out.mismatches.push(...(await compareLayout(view, id, source, { ...layout.plan, name: layout.name }, budget)));
    }
  }
  return out;
}

/** The plan of dataset `id`'s own rows, or why they do not plan (none, or rows that do not make one dataset). */
async function sourcePlan(view: NdTable, id: string): Promise<DatasetPlan | string> {
  const { filter } = planRead(view.uri, view.layout, {
    projection: [],
    conditions: [{ kind: "nd", sql: col(`${GLOBAL_ATTRS_COLUMN}.id`).eq(id).toSql() }],
  });
  try {
    return await planDataset(view, filter);
  } catch (err) {
    if (isLanceNdError(err, "InvalidInput")) return withoutPlace(err, view.uri);
    throw err;
  }
}

/** The regions of one layout whose values differ from the source's: one entry per variable and region. */
async function compareLayout(
  view: NdTable,
  id: string,
  source: DatasetPlan,
  layout: DatasetPlan & { name: string },
  budget: number,
): Promise<LayoutMismatch[]> {
  const names = source.variables.map((v) => v.name);
  const bytesOf = blockBytes(
    layout.grid,
    source.variables.map((v) => ({ dims: v.dims, bytes: valueBytes(v.type) })),
  );
  // The layout's chunk along each dim: its largest row (rows at the grid's end may be cut short).
  const steps = layout.grid.map((_, d) => layout.rows.reduce((n, row) => Math.max(n, row.size[d]!), 1));
  const found: LayoutMismatch[] = [];
  for (const slab of slabs(layout.grid, steps, bytesOf, budget)) {
    const region = Object.fromEntries(layout.grid.map((d, i) => [d.name, slab[i]!])) as LayoutMismatch["region"];
    const ranges = slab.map(([start, stop]) => ({ start, stop, drop: false }));
    const where = { id, layout: layout.name, region };
    const unread = (problem: string) => found.push({ ...where, variable: names.join(","), problem });
    const mine = await readSide(view, layout, ranges, names, "layout");
    if (typeof mine === "string") {
      unread(mine);
      continue;
    }
    const theirs = await readSide(view, source, ranges, names, "source");
    if (typeof theirs === "string") {
      unread(theirs);
      continue;
    }
    for (const name of names) {
      const problem = differences(mine.get(name)?.values, theirs.get(name)?.values, mine.get(name)?.shape ?? []);
      if (problem !== null) found.push({ ...where, variable: name, problem });
    }
  }
  return found;
}

/** The window `ranges` of `names` read from `plan`, or why it does not read (rows lacking a variable). */
async function readSide(
  view: NdTable,
  plan: DatasetPlan,
  ranges: readonly DimRange[],
  names: readonly string[],
  side: "layout" | "source",
): Promise<NdRecordBatch | string> {
  try {
    return await readWindow(view, plan, ranges, names);
  } catch (err) {
    if (!isLanceNdError(err, "InvalidInput")) throw err;
    return `the region does not read from the ${side}: ${withoutPlace(err, view.uri)}`;
  }
}

/**
 * Why the values `layout` are not `source` (both in the region's row-major
 * order, of `shape`): the first cell that differs, as its index in the
 * region, and how many do; null when they are the same. Numbers are
 * compared in their typed arrays, cells by `get` only for other types.
 */
function differences(layout: Vector | undefined, source: Vector | undefined, shape: readonly number[]): string | null {
  if (layout === undefined || source === undefined) return `the ${layout === undefined ? "layout" : "source"} lacks it`;
  if (layout.length !== source.length) return `${layout.length} values in the layout, ${source.length} in the source`;
  const [a, b] = [cells(layout), cells(source)];
  const nulls = layout.nullCount > 0 || source.nullCount > 0;
  const agree = (i: number) => {
    if (!nulls) return same(a(i), b(i));
    const valid = layout.isValid(i);
    return valid === source.isValid(i) && (!valid || same(a(i), b(i)));
  };
  let first = -1;
  let count = 0;
  for (let i = 0; i < layout.length; i++) {
    if (agree(i)) continue;
    if (first < 0) first = i;
    count++;
  }
  if (first < 0) return null;
  const cell = shape.map((_, d) => Math.floor(first / shape.slice(d + 1).reduce((n, s) => n * s, 1)) % shape[d]!);
  return `${count} value${count === 1 ? " differs" : "s differ"}; the first at [${cell.join(", ")}] of the region is ${show(layout.get(first))} in the layout, ${show(source.get(first))} in the source`;
}

/** The cell reader of `vector`: its typed array when it has one value a cell, else `get`. */
function cells(vector: Vector): (i: number) => unknown {
  const values = vector.toArray() as unknown;
  if (ArrayBuffer.isView(values) && (values as unknown as ArrayLike<unknown>).length === vector.length) {
    const typed = values as unknown as ArrayLike<unknown>;
    return (i) => typed[i];
  }
  return (i) => vector.get(i);
}

/** Two cells hold the same value: equal, both null, or both NaN. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return Number.isNaN(a) && Number.isNaN(b);
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  return String(a) === String(b);
}

function show(value: unknown): string {
  return value === null ? "null" : String(value);
}
