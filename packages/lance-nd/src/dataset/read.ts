/**
 * Reading a selection: the rows that overlap it, taken one at a time by row
 * id with only the requested variables, each cut to the selection (a block)
 * with nd-arrow's windowed `assemble`; `readWindow` assembles the blocks.
 */
import { CHUNK_OFFSET, GLOBAL_ATTRS_COLUMN, NdArray, NdRecordBatch, assemble, attr, type Attrs, type Window } from "@lance-nd/nd-arrow";
import { decodeRows, selectName } from "@lance-nd/format";
import { LanceNdError } from "../errors.js";
import { withPureErrors } from "../pure-errors.js";
import type { NdTable } from "../table.js";
import { takeRows } from "../lance/table-read.js";
import { describeRow, type DatasetPlan, type PlannedRow } from "./plan.js";
import type { DimRange } from "./selection.js";

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
 * A selection with no cell still takes one row, for the types and attributes.
 */
export function rowsFor(plan: DatasetPlan, ranges: readonly DimRange[], dims: ReadonlySet<string>): PlannedRow[] {
  const empty = ranges.some((r) => r.start === r.stop);
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
    if (empty) break;
  }
  return out;
}

/**
 * The cuts of `names` over `ranges`, one row at a time (the row is dropped
 * once cut).
 */
export async function* readCuts(view: NdTable, plan: DatasetPlan, ranges: readonly DimRange[], names: readonly string[]): AsyncGenerator<Cut> {
  const variables = names.map((name) => plan.variables.find((v) => v.name === name)!);
  const dims = new Set(variables.flatMap((v) => v.dims));
  const columns = [...names.map(selectName), ...(view.layout.globalAttrs === null ? [] : [GLOBAL_ATTRS_COLUMN])];
  for (const row of rowsFor(plan, ranges, dims)) {
    const batches = await takeRows(view.lance, [row.rowId], columns);
    const decoded = withPureErrors({ uri: view.uri }, () => batches.flatMap((rb) => decodeRows(rb)));
    const taken = decoded[0];
    if (taken === undefined) throw new LanceNdError("InvalidInput", `dataset: ${describeRow(row.rowId, row.id)} is gone from the pinned version`, { uri: view.uri });
    const missing = names.find((name) => !taken.has(name));
    if (missing !== undefined) {
      throw new LanceNdError("InvalidInput", `dataset: ${describeRow(row.rowId, row.id)} has no "${missing}" (null in this row)`, { uri: view.uri, column: missing });
    }
    yield cut(view, plan, ranges, row, taken);
  }
}

/** `taken` (one row) cut to `ranges`, on the row's own grid. */
function cut(view: NdTable, plan: DatasetPlan, ranges: readonly DimRange[], row: PlannedRow, taken: NdRecordBatch): Cut {
  const position = new Map(plan.grid.map((d, i) => [d.name, i]));
  const own = taken.grid().map((d) => position.get(d.name)!);
  const start = plan.grid.map((_, d) => Math.max(ranges[d]!.start, Math.min(row.start[d]!, ranges[d]!.stop)));
  const stop = plan.grid.map((_, d) => Math.max(start[d]!, Math.min(ranges[d]!.stop, row.start[d]! + row.size[d]!)));
  const placed = taken.withGlobalAttrs(withOffset(taken.globalAttrs, own.map((d) => row.start[d]!)));
  const window: Window = Object.fromEntries(own.map((d) => [plan.grid[d]!.name, [start[d]!, stop[d]!] as const]));
  const batch = withPureErrors({ uri: view.uri }, () => assemble([placed], { window }));
  return { start, batch: batch.withGlobalAttrs(withOffset(batch.globalAttrs, own.map((d) => start[d]!))) };
}

/** The blocks of `names` over `ranges`: each row's cut, with its offset in the selection and single-value dims dropped. */
export async function* readBlocks(view: NdTable, plan: DatasetPlan, ranges: readonly DimRange[], names: readonly string[]): AsyncGenerator<DatasetBlock> {
  for await (const { start, batch } of readCuts(view, plan, ranges, names)) {
    const offset = plan.grid.flatMap((_, d) => (ranges[d]!.drop ? [] : [start[d]! - ranges[d]!.start]));
    yield { offset, batch: finish(batch, plan, ranges) };
  }
}

/** The selection of `names` as one batch: the cuts assembled into the window, holding the window plus one row. */
export async function readWindow(view: NdTable, plan: DatasetPlan, ranges: readonly DimRange[], names: readonly string[]): Promise<NdRecordBatch> {
  if (names.length === 0) return new NdRecordBatch({}, plan.globalAttrs);
  const cuts: NdRecordBatch[] = [];
  for await (const { batch } of readCuts(view, plan, ranges, names)) cuts.push(batch);
  const position = new Map(plan.grid.map((d, i) => [d.name, i]));
  const own = cuts[0]!.grid().map((d) => position.get(d.name)!);
  const window: Window = Object.fromEntries(own.map((d) => [plan.grid[d]!.name, [ranges[d]!.start, ranges[d]!.stop] as const]));
  const whole = cuts.length === 1 ? cuts[0]! : withPureErrors({ uri: view.uri }, () => assemble(cuts, { window }));
  return finish(whole, plan, ranges);
}

/** A cut or window as users get it: no `chunk_offset`, the dims of single-value selections dropped. */
function finish(batch: NdRecordBatch, plan: DatasetPlan, ranges: readonly DimRange[]): NdRecordBatch {
  const dropped = new Set(plan.grid.filter((_, d) => ranges[d]!.drop).map((d) => d.name));
  const arrays = batch.arrays().map(([name, array]) => {
    if (!array.dims.some((d) => dropped.has(d.name))) return [name, array] as const;
    return [name, new NdArray(array.values, array.dims.filter((d) => !dropped.has(d.name)), array.attrs, array.metadata)] as const;
  });
  const globalAttrs = new Map(batch.globalAttrs);
  globalAttrs.delete(CHUNK_OFFSET);
  return new NdRecordBatch(arrays, globalAttrs);
}

function withOffset(attrs: Attrs, start: readonly number[]): Attrs {
  return new Map([...attrs].filter(([key]) => key !== CHUNK_OFFSET)).set(CHUNK_OFFSET, attr.uint32(Uint32Array.from(start)));
}
