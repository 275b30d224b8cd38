/**
 * How a netCDF file cuts into rows for a row budget (nd-arrow README "The
 * reader contract", `NdSource.rowPlan`): whole when it fits, else on its
 * storage chunks so a row stays within the budget (nd-arrow's
 * `planRowGroups`: the storage chunks of its largest variable, or groups of
 * variables on dims of their own), or by the caller's sizes. Only one row
 * is read at a time.
 */
import { CHUNK_OFFSET } from "@lance-nd/nd-arrow";
import type { NdRecordBatch, NdRowPlan } from "@lance-nd/nd-arrow";
import { planRowGroups, type RowGroup } from "@lance-nd/nd-arrow/internal";
import { NetcdfError } from "./netcdf-error.js";
import type { NetcdfFile } from "./open.js";

/** The uncompressed bytes of a file's variables. */
function fileBytes(file: NetcdfFile): number {
  return file.variables.reduce((n, v) => n + v.bytes, 0);
}

/**
 * The rows of `file` within `budget` bytes a row: cut by `sizes` when
 * given (`DimNotFound` naming the dims the file lacks), else one row when
 * the file fits, else nd-arrow's `planRowGroups` on its storage chunks,
 * with `cut` saying how.
 *
 * @example
 * const plan = netcdfRowPlan(file, 2 ** 20);
 * plan.cut?.how; // "of time=4 on its storage chunks"
 */
export function netcdfRowPlan(file: NetcdfFile, budget: number, sizes?: Readonly<Record<string, number>>): NdRowPlan {
  const all = file.variables.map((v) => v.name);
  const grid = gridOf(file, all);
  if (sizes !== undefined) {
    const unknown = Object.keys(sizes).filter((d) => !grid.has(d));
    if (unknown.length > 0) {
      throw new NetcdfError(
        "DimNotFound",
        `${file.path}: cannot cut rows along ${unknown.join(", ")}: the file's dims are ${[...grid.keys()].join(", ")}`,
        { path: file.path },
      );
    }
    return planOf(file, [{ variables: all, sizes }], undefined);
  }
  const whole = planOf(file, [{ variables: all, sizes: {} }], undefined);
  const bytes = fileBytes(file);
  if (bytes <= budget || grid.size === 0) return whole;
  const stored = file.variables.map((v) => ({
    name: v.name,
    dims: v.dims,
    itemBytes:
      v.bytes /
      Math.max(
        1,
        v.dims.reduce((n, d) => n * d.size, 1),
      ),
    block: v.chunking,
  }));
  const groups = planRowGroups(stored, budget);
  if (groups.length === 1 && Object.keys(groups[0]!.sizes).length === 0) return whole;
  const how =
    groups.length === 1
      ? `of ${shapeOf(groups[0]!.sizes)} on its storage chunks`
      : `of ${groups.length} groups of variables that share no dim, each within the budget or cut on its storage chunks`;
  return planOf(file, groups, { bytes, how });
}

/** The plan of `file` in rows of `groups`. */
function planOf(file: NetcdfFile, groups: readonly RowGroup[], cut: NdRowPlan["cut"]): NdRowPlan {
  const count = groups.reduce((n, g) => n + countRows(gridOf(file, g.variables), g.sizes), 0);
  return { count, cut, rows: () => groupRows(file, groups) };
}

/** `sizes` as `dim=size,...`. */
function shapeOf(sizes: Readonly<Record<string, number>>): string {
  return Object.entries(sizes)
    .map(([dim, size]) => `${dim}=${size}`)
    .join(",");
}

/** The dims of the variables `names` of `file` with their sizes, in the order the variables meet them. */
function gridOf(file: NetcdfFile, names: readonly string[]): Map<string, number> {
  const wanted = new Set(names);
  const grid = new Map<string, number>();
  for (const v of file.variables)
    if (wanted.has(v.name)) for (const d of v.dims) if (!grid.has(d.name)) grid.set(d.name, d.size);
  return grid;
}

function countRows(grid: ReadonlyMap<string, number>, sizes: Readonly<Record<string, number>>): number {
  let rows = 1;
  for (const [dim, size] of grid) if (Object.hasOwn(sizes, dim)) rows *= Math.max(1, Math.ceil(size / sizes[dim]!));
  return rows;
}

/**
 * The rows of `file` in `groups`, group by group; a whole-file row has no
 * `chunk_offset`, a row of a group has one on its own grid (lance-nd README,
 * "Datasets": rows of some of the variables).
 */
async function* groupRows(file: NetcdfFile, groups: readonly RowGroup[]): AsyncGenerator<NdRecordBatch> {
  const [first] = groups;
  if (groups.length === 1 && Object.keys(first!.sizes).length === 0) {
    for await (const row of file.chunks({}))
      yield row.withGlobalAttrs(new Map([...row.globalAttrs].filter(([key]) => key !== CHUNK_OFFSET)));
    return;
  }
  if (groups.length === 1) {
    yield* file.chunks(first!.sizes);
    return;
  }
  for (const group of groups) yield* file.chunks(group.sizes, { variables: group.variables });
}
