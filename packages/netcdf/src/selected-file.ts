/**
 * A region and a projection of an open netCDF file (`selectNetcdf`), as
 * xarray's `ds[variables].isel(...)`: the
 * file with the region's dims, its variables cut to it, `read` selecting
 * inside the region (so only the hyperslabs or byte ranges it touches are
 * read) and `chunks` cutting the region into rows.
 */
import { attr } from "@lance-nd/nd-arrow";
import type { Attr, Attrs, Dim, NdArray, NdRecordBatch, Selection } from "@lance-nd/nd-arrow";
import {
  DIM_ORDER_ATTR,
  UNLIMITED_ATTR,
  UNUSED_DIM_SIZES_ATTR,
  UNUSED_DIMS_ATTR,
  VARIABLE_ORDER_ATTR,
  withCoordinates,
} from "@lance-nd/cf";
import { chunkRows, selectedDims } from "./chunk-rows.js";
import { netcdfRowPlan } from "./row-plan.js";
import { NetcdfError } from "./netcdf-error.js";
import type { NetcdfChunksOptions, NetcdfFile, NetcdfVariable } from "./open.js";
import type { NetcdfDim } from "./raw.js";

/** A region of a file by dim: `[start, stop)` keeps the dim, an index drops it (as xarray's `isel`). */
export type FileRegion = Readonly<Record<string, readonly [number, number] | number>>;

/**
 * `file` (from `openNetcdf`) at `region` (dims it does not name whole) with only `variables`
 * and their coordinates (the variables named as their dims, and those
 * their `coordinates` attribute names; all variables without it). A
 * variable without a dim of the region is kept whole, as xarray keeps it.
 * `DimNotFound` for a dim the file lacks, `InvalidArgument` for a range
 * that selects nothing or an index outside its dim, `VariableNotFound` for
 * a name in `variables` the file lacks. Closing it closes `file`. Only
 * the hyperslabs (netCDF-4) or byte ranges (classic) the region touches
 * are read.
 *
 * @example
 * const file = selectNetcdf(await openNetcdf("sst.nc"), { time: [0, 4], lat: 10 }, ["sst"]);
 * file.dims; // time 4, lon ...: lat dropped; sst with its coordinates time and lon
 * for await (const row of file.chunks({ time: 2 })) { }
 */
export function selectNetcdf(file: NetcdfFile, region: FileRegion, variables?: readonly string[]): NetcdfFile {
  const box = new Map(selectedDims(file.path, file.dims, region as Selection).map((d) => [d.name, d] as const));
  for (const [name, d] of box) {
    if (Object.hasOwn(region, name) && d.stop <= d.start)
      throw new NetcdfError("InvalidArgument", `${file.path}: the selection along "${name}" takes no cell`, {
        path: file.path,
      });
  }
  const dropped = (name: string) => box.get(name)?.drop === true;
  const resized = <D extends Dim>(d: D): D => ({ ...d, size: box.get(d.name)!.stop - box.get(d.name)!.start });
  const kept = keptVariables(file, variables);
  const chosen = file.variables.filter((v) => kept.has(v.name));
  // The coordinate of a dropped dim stays as a scalar coordinate, as xarray's isel keeps it (and writes it).
  const scalars = chosen.filter((v) => v.dims.length === 1 && v.dims[0]!.name === v.name && dropped(v.name));
  const views = new Map<string, NetcdfVariable>(
    chosen.map((v) => {
      const dims = v.dims.filter((d) => !dropped(d.name)).map(resized);
      const all = v.dims.reduce((n, d) => n * d.size, 1);
      const taken = v.dims.reduce((n, d) => n * (dropped(d.name) ? 1 : resized(d).size), 1);
      const coordinate = file.dims.some((d) => d.name === v.name);
      const attrs = coordinate
        ? v.attrs
        : withCoordinates(
            v.attrs,
            scalars.map((c) => c.name),
          );
      return [v.name, { ...v, dims, attrs, bytes: all === 0 ? v.bytes : (v.bytes / all) * taken }];
    }),
  );
  const used = new Set(chosen.flatMap((v) => v.dims.map((d) => d.name)));
  const dims = file.dims
    .filter((d) => !dropped(d.name) && (variables === undefined || used.has(d.name)))
    .map((d) => resized(d as NetcdfDim));
  const view: NetcdfFile = {
    path: file.path,
    format: file.format,
    dims,
    variables: [...views.values()],
    globalAttrs: globalsOf(file.globalAttrs, dims, [...views.keys()]),
    groups: file.groups,
    warnings: file.warnings,
    variable: (name) => {
      const found = views.get(name);
      // A name the file lacks is the file's VariableNotFound; one left out of the selection is this one.
      if (found === undefined) file.variable(name);
      if (found === undefined)
        throw new NetcdfError("VariableNotFound", `${file.path}: variable "${name}" is not in the selection`, {
          path: file.path,
          variable: name,
        });
      return found;
    },
    read: async (name: string, selection: Selection = {}): Promise<NdArray> => {
      const { dims, attrs } = view.variable(name);
      const inside = selectedDims(file.path, dims, selection, name);
      const under: Record<string, number | [number, number]> = {};
      for (const d of file.variable(name).dims) {
        const at = box.get(d.name)!;
        if (at.drop) under[d.name] = at.start;
        else {
          const s = inside.find((x) => x.name === d.name)!;
          under[d.name] = s.drop ? at.start + s.start : [at.start + s.start, at.start + s.stop];
        }
      }
      return (await file.read(name, under)).withAttrs(attrs);
    },
    chunks: (sizes: Readonly<Record<string, number>>, options?: NetcdfChunksOptions): AsyncGenerator<NdRecordBatch> =>
      chunkRows(view, sizes, options),
    rowPlan: (budget, sizes) => netcdfRowPlan(view, budget, sizes),
    close: () => file.close(),
  };
  return view;
}

/** The names `variables` keeps of `file`, with their coordinates; every variable without it. */
function keptVariables(file: NetcdfFile, variables: readonly string[] | undefined): Set<string> {
  const names = new Set(file.variables.map((v) => v.name));
  if (variables === undefined) return names;
  const kept = new Set<string>();
  for (const name of variables) {
    const variable = file.variable(name);
    kept.add(name);
    for (const d of variable.dims) if (names.has(d.name)) kept.add(d.name);
    const coordinates = variable.attrs.get("coordinates")?.toJS();
    if (typeof coordinates === "string") for (const c of coordinates.split(/\s+/)) if (names.has(c)) kept.add(c);
  }
  return kept;
}

/** The storage attributes of `globals` that list dims and variables, kept to `dims` and `variables`. */
function globalsOf(globals: Attrs, dims: readonly NetcdfDim[], variables: readonly string[]): Attrs {
  const out = new Map<string, Attr>(globals);
  const listed = (key: string) => {
    const value = globals.get(key)?.toJS();
    return value === undefined ? undefined : Array.isArray(value) ? (value as string[]) : [String(value)];
  };
  const names = new Set(dims.map((d) => d.name));
  const keep = (key: string, allowed: (name: string) => boolean) => {
    const list = listed(key);
    if (list === undefined) return;
    const left = list.filter(allowed);
    if (left.length === 0) out.delete(key);
    else out.set(key, attr.utf8(left.length === 1 && key === UNLIMITED_ATTR ? left[0]! : left));
  };
  keep(DIM_ORDER_ATTR, (d) => names.has(d));
  keep(UNLIMITED_ATTR, (d) => names.has(d));
  keep(VARIABLE_ORDER_ATTR, (v) => variables.includes(v));
  const unused = listed(UNUSED_DIMS_ATTR)?.filter((d) => names.has(d)) ?? [];
  if (unused.length === 0) {
    out.delete(UNUSED_DIMS_ATTR);
    out.delete(UNUSED_DIM_SIZES_ATTR);
  } else {
    out.set(UNUSED_DIMS_ATTR, attr.utf8(unused));
    const size = (name: string) => dims.find((d) => d.name === name)!.size;
    out.set(UNUSED_DIM_SIZES_ATTR, attr.int32(Int32Array.from(unused, size)));
  }
  return out;
}
