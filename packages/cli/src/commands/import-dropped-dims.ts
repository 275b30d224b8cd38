/**
 * The dims an index drops from a Zarr store's import (`--isel dim=i`, a
 * single `--sel dim=v`; CLI README, "Zarr": "Stores elsewhere and part of
 * a store"): the store is opened at `[i, i + 1)` along each, and here each
 * array loses the dim, as xarray's `isel(dim=i)` drops it and as a netCDF
 * source's import does (@lance-nd/netcdf's `selectNetcdf`): the dim's
 * coordinate stays as a scalar coordinate, named in the `coordinates`
 * attribute of the variables that are not coordinates.
 */
import { type Attr, type Attrs, CHUNK_OFFSET, NdArray, NdRecordBatch, type NdSource, attr } from "@lance-nd/nd-arrow";
import { withCoordinates } from "@lance-nd/cf";
import type { Region } from "./import-selection.js";

/** `region` as the `[start, stop)` ranges a store opens at (an index `i` as `[i, i + 1)`), and the dims of its indices. */
export function rangesOf(region: Region): {
  ranges: Record<string, readonly [number, number]>;
  dropped: ReadonlySet<string>;
} {
  const ranges: Record<string, readonly [number, number]> = {};
  const dropped = new Set<string>();
  for (const [dim, cells] of Object.entries(region)) {
    if (typeof cells === "number") dropped.add(dim);
    ranges[dim] = typeof cells === "number" ? [cells, cells + 1] : cells;
  }
  return { ranges, dropped };
}

/**
 * `source` (opened at {@link rangesOf}'s ranges: one cell along each
 * `dropped` dim) without the `dropped` dims: its dims and variables, the
 * arrays it reads and its rows (their `chunk_offset` on the grid left).
 */
export function withoutDims(source: NdSource, dropped: ReadonlySet<string>): NdSource {
  if (dropped.size === 0) return source;
  const dimNames = new Set(source.variables.flatMap((v) => v.dims.map((d) => d.name)));
  const scalars = source.variables
    .filter((v) => v.dims.length === 1 && v.dims[0]!.name === v.name && dropped.has(v.name))
    .map((v) => v.name);
  const attrsOf = (name: string, attrs: Attrs) => (dimNames.has(name) ? attrs : withCoordinates(attrs, scalars));
  const drop = (name: string, array: NdArray) =>
    new NdArray(
      array.values,
      array.dims.filter((d) => !dropped.has(d.name)),
      attrsOf(name, array.attrs),
      array.metadata,
    );
  return {
    ...source,
    dims: source.dims.filter((d) => !dropped.has(d.name)),
    variables: source.variables.map((v) => ({
      ...v,
      dims: v.dims.filter((d) => !dropped.has(d.name)),
      attrs: attrsOf(v.name, v.attrs),
    })),
    read: async (name, within) => drop(name, await source.read(name, within)),
    chunks: (sizes) => rowsWithout(source.chunks(sizes), drop),
    rowPlan: (budget, sizes) => {
      const plan = source.rowPlan(budget, sizes);
      return { count: plan.count, cut: plan.cut, rows: () => rowsWithout(plan.rows(), drop) };
    },
  };
}

/** The rows with each array `drop`ped, their `chunk_offset` kept for the dims left. */
async function* rowsWithout(
  rows: AsyncGenerator<NdRecordBatch>,
  drop: (name: string, array: NdArray) => NdArray,
): AsyncGenerator<NdRecordBatch> {
  for await (const row of rows) {
    const offset = row.globalAttrs.get(CHUNK_OFFSET);
    const starts = offset === undefined ? undefined : Array.from(offset.value as Iterable<number>, Number);
    const start = new Map(row.grid().map((d, i) => [d.name, starts?.[i] ?? 0]));
    const kept = new NdRecordBatch(row.arrays().map(([name, array]) => [name, drop(name, array)] as const));
    const globals = new Map<string, Attr>(row.globalAttrs);
    if (offset !== undefined) globals.set(CHUNK_OFFSET, attr.uint32(kept.grid().map((d) => start.get(d.name)!)));
    yield kept.withGlobalAttrs(globals);
  }
}
