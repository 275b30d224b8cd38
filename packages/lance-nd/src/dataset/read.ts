/**
 * Reading a selection: the rows that overlap it, taken by row id with only
 * the requested variables (`../take-read.ts`), cut to the selection with nd-arrow's
 * windowed `assemble`: one block per row, or the whole window.
 */
import { withFirstFileAttrs } from "./first-file-attrs.js";
import { CHUNK_OFFSET, NdArray, NdRecordBatch, assemble, attr, type Attrs, type Window } from "@lance-nd/nd-arrow";
import { withPureErrors } from "../pure-errors.js";
import type { NdTable } from "../table.js";
import type { DatasetPlan, PlannedRow } from "./plan.js";
import type { DimRange } from "./selection.js";
import { takeGroups, type TakenRow } from "../read/take-read.js";

/** One block of a read: a row cut to the selection. */
export interface DatasetBlock {
  /** Where the block starts in the selection, along each dim the selection keeps (in `dims` order). */
  readonly offset: number[];
  /** The block's arrays and the dataset's global attributes (no `chunk_offset`); single-value selections drop their dims. */
  readonly batch: NdRecordBatch;
}

/** A block before dims are dropped: the cut batch (its `chunk_offset` is its start on the grid) and its start in grid order. */
interface Cut {
  start: number[];
  batch: NdRecordBatch;
}

/**
 * The rows that hold the cells of `ranges` for variables on `dims`: rows
 * whose box meets the selection, one per distinct start along `dims` (rows
 * that differ only along other dims hold the same pieces of these variables).
 * Along a dim selected empty the rows at the selection's start (or the last
 * cell) stand in: they give the types and attributes, and the whole window
 * of any variable without that dim.
 */
export function rowsFor(plan: DatasetPlan, ranges: readonly DimRange[], dims: ReadonlySet<string>): PlannedRow[] {
  const probe = ranges.map((r, d) => {
    if (r.start < r.stop) return [r.start, r.stop] as const;
    const at = Math.min(r.start, plan.grid[d]!.size - 1);
    return [at, at + 1] as const;
  });
  const seen = new Set<string>();
  const out: PlannedRow[] = [];
  for (const row of plan.rows) {
    if (!probe.every(([a, b], d) => row.start[d]! < b && a < row.start[d]! + row.size[d]!)) continue;
    const key = plan.grid.map((g, d) => (dims.has(g.name) ? row.start[d] : "")).join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(row);
  }
  return out;
}

/** Values taken per SDK call by `read` (about; a bigger row is taken alone). */
const READ_BYTES = 32 * 1024 * 1024;

/** The cuts of `names` over `ranges`, one row at a time (the row is dropped once cut). */
export async function* readCuts(
  view: NdTable,
  plan: DatasetPlan,
  ranges: readonly DimRange[],
  names: readonly string[],
): AsyncGenerator<Cut> {
  for await (const group of takeGroups(view, plan, rowsOf(plan, ranges, names), names, 0)) {
    for (const { row, batch } of group) yield cut(view, plan, ranges, row, batch);
  }
}

/** The rows holding the cells of `ranges` for `names`. */
function rowsOf(plan: DatasetPlan, ranges: readonly DimRange[], names: readonly string[]): PlannedRow[] {
  return rowsFor(plan, ranges, new Set(names.flatMap((name) => plan.variables.find((v) => v.name === name)!.dims)));
}

/**
 * `taken` (one row) cut to `ranges`, on the row's own grid, with the
 * dataset's global attributes (the first row's, as xarray's
 * `open_mfdataset` keeps the first file's: rows may differ, e.g. by a chunk
 * name).
 */
function cut(
  view: NdTable,
  plan: DatasetPlan,
  ranges: readonly DimRange[],
  row: PlannedRow,
  taken: NdRecordBatch,
): Cut {
  const position = new Map(plan.grid.map((d, i) => [d.name, i]));
  const own = taken.grid().map((d) => position.get(d.name)!);
  const start = plan.grid.map((_, d) => Math.max(ranges[d]!.start, Math.min(row.start[d]!, ranges[d]!.stop)));
  const stop = plan.grid.map((_, d) => Math.max(start[d]!, Math.min(ranges[d]!.stop, row.start[d]! + row.size[d]!)));
  const window: Window = Object.fromEntries(own.map((d) => [plan.grid[d]!.name, [start[d]!, stop[d]!] as const]));
  const batch = withPureErrors({ uri: view.uri }, () => assemble([place(plan, row, taken)], { window }));
  return {
    start,
    batch: batch.withGlobalAttrs(
      withOffset(
        batch.globalAttrs,
        own.map((d) => start[d]!),
      ),
    ),
  };
}

/** `taken` with the dataset's global attributes and its `chunk_offset` on its own grid (for `assemble`). */
function place(plan: DatasetPlan, row: PlannedRow, taken: NdRecordBatch): NdRecordBatch {
  const position = new Map(plan.grid.map((d, i) => [d.name, i]));
  return taken.withGlobalAttrs(
    withOffset(
      plan.globalAttrs,
      taken.grid().map((d) => row.start[position.get(d.name)!]!),
    ),
  );
}

/** The blocks of `names` over `ranges`: each row's cut, with its offset in the selection and single-value dims dropped. */
export async function* readBlocks(
  view: NdTable,
  plan: DatasetPlan,
  ranges: readonly DimRange[],
  names: readonly string[],
): AsyncGenerator<DatasetBlock> {
  for await (const { start, batch } of readCuts(view, plan, ranges, names)) {
    const offset = plan.grid.flatMap((_, d) => (ranges[d]!.drop ? [] : [start[d]! - ranges[d]!.start]));
    yield { offset, batch: finish(batch, plan, ranges) };
  }
}

/**
 * The selection of `names` as one batch. The overlapping rows are taken in
 * groups of about `maxBytes` of values (default 32 MiB): when one group holds them all, they are
 * assembled into the window in one strided copy (the window plus the
 * group); else each row is cut as it comes and the cuts are assembled at
 * the end (twice the window plus one group).
 */
export async function readWindow(
  view: NdTable,
  plan: DatasetPlan,
  ranges: readonly DimRange[],
  names: readonly string[],
  maxBytes = READ_BYTES,
): Promise<NdRecordBatch> {
  if (names.length === 0) return new NdRecordBatch({}, plan.globalAttrs);
  const cutAll = (group: TakenRow[]) => group.map(({ row, batch }) => cut(view, plan, ranges, row, batch).batch);
  let first: TakenRow[] | undefined;
  let groups = 0;
  const cuts: NdRecordBatch[] = [];
  for await (const group of takeGroups(view, plan, rowsOf(plan, ranges, names), names, maxBytes)) {
    if (++groups === 1) {
      first = group;
      continue;
    }
    if (first !== undefined) cuts.push(...cutAll(first));
    first = undefined;
    cuts.push(...cutAll(group));
  }
  const parts = groups === 1 ? first!.map(({ row, batch }) => place(plan, row, batch)) : cuts;
  const position = new Map(plan.grid.map((d, i) => [d.name, i]));
  const own = parts[0]!.grid().map((d) => position.get(d.name)!);
  const window: Window = Object.fromEntries(
    own.map((d) => [plan.grid[d]!.name, [ranges[d]!.start, ranges[d]!.stop] as const]),
  );
  return finish(
    withPureErrors({ uri: view.uri }, () => assemble(plan.manyFiles ? withFirstFileAttrs(parts) : parts, { window })),
    plan,
    ranges,
  );
}

/** A cut or window as users get it: no `chunk_offset`, the dims of single-value selections dropped. */
function finish(batch: NdRecordBatch, plan: DatasetPlan, ranges: readonly DimRange[]): NdRecordBatch {
  const dropped = new Set(plan.grid.filter((_, d) => ranges[d]!.drop).map((d) => d.name));
  const arrays = batch.arrays().map(([name, array]) => {
    if (!array.dims.some((d) => dropped.has(d.name))) return [name, array] as const;
    return [
      name,
      new NdArray(
        array.values,
        array.dims.filter((d) => !dropped.has(d.name)),
        array.attrs,
        array.metadata,
      ),
    ] as const;
  });
  const globalAttrs = new Map(batch.globalAttrs);
  globalAttrs.delete(CHUNK_OFFSET);
  return new NdRecordBatch(arrays, globalAttrs);
}

function withOffset(attrs: Attrs, start: readonly number[]): Attrs {
  return new Map([...attrs].filter(([key]) => key !== CHUNK_OFFSET)).set(
    CHUNK_OFFSET,
    attr.uint32(Uint32Array.from(start)),
  );
}
