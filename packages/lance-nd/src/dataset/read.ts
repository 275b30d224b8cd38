/**
 * Reading a selection: for each group of variables with the same dims and
 * rows, the rows whose pieces tile the selection (`variable-rows.ts`),
 * taken by row id (`take-groups.ts` over `../read/take-read.ts`) in as few takes as reading few
 * more bytes allows (`read-takes.ts`), fewer on a wide table, where each
 * take's fixed cost outweighs reading null columns (`take-cost.ts`), cut to the selection with nd-arrow's
 * windowed `assemble`: one block per row, or the whole window.
 */
import { withFirstFileAttrs } from "./first-file-attrs.js";
import { CHUNK_OFFSET, NdArray, NdRecordBatch, assemble, attr, type Attrs, type Window } from "@lance-nd/nd-arrow";
import { LanceNdError } from "../errors.js";
import { withPureErrors } from "../pure-errors.js";
import type { NdTable } from "../table.js";
import type { DatasetPlan } from "./plan.js";
import { describeRow, type PlannedRow } from "./plan-rows.js";
import type { DimRange } from "./selection.js";
import { readTakes } from "./read-takes.js";
import { fewerTakes } from "./take-cost.js";
import { fieldCount } from "../lance/wide-projection.js";
import { blockRows, variableRows, type VariableRows } from "./variable-rows.js";
import { checkCellsHeld } from "./missing-cells.js";
import { takeDetacher } from "../read/detached.js";
import { takeGroups, type TakenRow } from "./take-groups.js";

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

/** Values taken per SDK call by `read` (about; a bigger row is taken alone). */
const READ_BYTES = 32 * 1024 * 1024;

/**
 * The rows `groups` read, in the takes {@link readTakes} makes of them,
 * merged on a wide table while that costs less than the calls it saves
 * ({@link fewerTakes}); each cut by `maxBytes` (0: one row at a time).
 */
async function* takeRows(
  view: NdTable,
  plan: DatasetPlan,
  groups: readonly VariableRows[],
  maxBytes: number,
): AsyncGenerator<TakenRow[]> {
  const takes = fewerTakes(plan, readTakes(plan, groups), fieldCount(view.tableSchema), maxBytes);
  for (const { rows, names, neededOf } of takes) yield* takeGroups(view, plan, rows, names, maxBytes, neededOf);
}

/** The parts of `taken` for each group whose `members` hold the row: the group's variables, as `part` makes them. */
function partsOf<T>(
  groups: readonly VariableRows[],
  members: readonly ReadonlySet<PlannedRow>[],
  taken: readonly TakenRow[],
  part: (row: PlannedRow, batch: NdRecordBatch, group: number) => T,
): T[] {
  return taken.flatMap(({ row, batch }) =>
    groups.flatMap((group, k) => (members[k]!.has(row) ? [part(row, batch.select(group.names), k)] : [])),
  );
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

/**
 * The blocks of `names` over `ranges`: the cut of each row `blockRows`
 * gives (rows where one of `names` is null give no block), with its offset
 * in the selection and single-value dims dropped. Variables no row holds
 * together (rows of some of the variables: README "Datasets") come in
 * blocks of their own, set by set ({@link heldTogether}).
 */
export async function* readBlocks(
  view: NdTable,
  plan: DatasetPlan,
  ranges: readonly DimRange[],
  names: readonly string[],
): AsyncGenerator<DatasetBlock> {
  checkCellsHeld(view, plan, ranges);
  for (const together of heldTogether(plan, names)) {
    for await (const taken of takeGroups(view, plan, blockRows(plan, ranges, together).rows, together, 0)) {
      for (const { row, batch } of taken) {
        const { start, batch: block } = cut(view, plan, ranges, row, batch);
        const offset = plan.grid.flatMap((_, d) => (ranges[d]!.drop ? [] : [start[d]! - ranges[d]!.start]));
        yield { offset, batch: finish(block, plan, ranges) };
      }
    }
  }
}

/**
 * `names` in sets linked by the rows that hold them: two variables some
 * row holds both of are in one set. Every row of a dataset imported whole
 * or cut along its dims holds every variable (one set); an import that
 * groups variables on dims of their own makes a set of each group.
 */
function heldTogether(plan: DatasetPlan, names: readonly string[]): string[][] {
  const sets: { names: string[]; rows: Set<PlannedRow> }[] = [];
  for (const name of names) {
    const holders = plan.rows.filter((row) => row.variables.has(name));
    const linked = sets.filter((set) => holders.some((row) => set.rows.has(row)));
    const merged = { names: [...linked.flatMap((set) => set.names), name], rows: new Set(holders) };
    for (const set of linked) for (const row of set.rows) merged.rows.add(row);
    sets.splice(0, sets.length, ...sets.filter((set) => !linked.includes(set)), merged);
  }
  return sets.map((set) => names.filter((name) => set.names.includes(name)));
}

/**
 * The selection of `names` as one batch: each group of variables with the
 * same dims and rows (`variableRows`) assembled from its rows, the global
 * attributes those of the group with the most dims. The rows are taken in
 * groups of about `maxBytes` of values (default 32 MiB): when one group
 * holds them all, they are assembled into the window in one strided copy
 * (the window plus the group); else each row is cut as it comes and the
 * cuts are assembled at the end (twice the window plus one group).
 *
 * @throws LanceNdError `InvalidInput` naming the variable and the rows when
 * rows the selection needs lack a variable (null in them).
 */
export async function readWindow(
  view: NdTable,
  plan: DatasetPlan,
  ranges: readonly DimRange[],
  names: readonly string[],
  maxBytes = READ_BYTES,
): Promise<NdRecordBatch> {
  if (names.length === 0) return new NdRecordBatch({}, plan.globalAttrs);
  checkCellsHeld(view, plan, ranges);
  const groups = variableRows(plan, ranges, names);
  const gap = groups.find((group) => !group.covered);
  if (gap !== undefined) throw lackingRows(view, plan, gap);
  const members = groups.map((group) => new Set(group.rows));
  const parts: NdRecordBatch[][] = groups.map(() => []);
  // The cuts outlive their takes (a window holds a cut of every row).
  const detached = takeDetacher();
  const cutAll = (taken: TakenRow[]) => {
    for (const [k, part] of partsOf(
      groups,
      members,
      taken,
      (row, batch, k) => [k, detached(cut(view, plan, ranges, row, batch).batch)] as const,
    ))
      parts[k]!.push(part);
  };
  let first: TakenRow[] | undefined;
  let takes = 0;
  for await (const taken of takeRows(view, plan, groups, maxBytes)) {
    if (++takes === 1) {
      first = taken;
      continue;
    }
    if (first !== undefined) cutAll(first);
    first = undefined;
    cutAll(taken);
  }
  if (first !== undefined)
    for (const [k, part] of partsOf(groups, members, first, (row, batch, k) => [k, place(plan, row, batch)] as const))
      parts[k]!.push(part);
  const arrays = new Map<string, NdArray>();
  let globalAttrs: Attrs = plan.globalAttrs;
  let widest = -1;
  groups.forEach((group, k) => {
    const batch = assembleWindow(view, plan, ranges, parts[k]!);
    for (const [name, array] of batch.arrays()) arrays.set(name, array);
    if (group.dims.size > widest) [widest, globalAttrs] = [group.dims.size, batch.globalAttrs];
  });
  return finish(
    new NdRecordBatch(
      names.map((name) => [name, arrays.get(name)!] as const),
      globalAttrs,
    ),
    plan,
    ranges,
  );
}

/** The number of table rows {@link readWindow} takes for `names` over `ranges`. */
export function windowRowCount(plan: DatasetPlan, ranges: readonly DimRange[], names: readonly string[]): number {
  return new Set(variableRows(plan, ranges, names).flatMap((group) => group.rows)).size;
}

/** `parts` (placed rows or cuts of one group of variables) assembled into the selection's window on their grid. */
function assembleWindow(
  view: NdTable,
  plan: DatasetPlan,
  ranges: readonly DimRange[],
  parts: readonly NdRecordBatch[],
): NdRecordBatch {
  const position = new Map(plan.grid.map((d, i) => [d.name, i]));
  const own = parts[0]!.grid().map((d) => position.get(d.name)!);
  const window: Window = Object.fromEntries(
    own.map((d) => [plan.grid[d]!.name, [ranges[d]!.start, ranges[d]!.stop] as const]),
  );
  return withPureErrors({ uri: view.uri }, () =>
    assemble(plan.manyFiles ? withFirstFileAttrs(parts) : parts, { window }),
  );
}

/** The error of a read that needs rows lacking the variables of `group`. */
function lackingRows(view: NdTable, plan: DatasetPlan, group: VariableRows): LanceNdError {
  const shown = group.lacking
    .slice(0, 5)
    .map(
      (row) =>
        `${describeRow(row.rowId, row.id)} at offset [${row.start.map((s, d) => s + plan.origin[d]!).join(", ")}]`,
    );
  const more = group.lacking.length > 5 ? ` and ${group.lacking.length - 5} more` : "";
  const names = group.names.map((name) => `"${name}"`).join(", ");
  const message =
    `dataset: ${group.names.length === 1 ? "variable" : "variables"} ${names} ${group.names.length === 1 ? "is" : "are"} ` +
    `null in rows the selection needs: ${shown.join(", ")}${more}; select cells of the rows that hold it, ` +
    "or read it with blocks() (rows without it give no block)";
  return new LanceNdError("InvalidInput", message, { uri: view.uri, column: group.names[0]! });
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
