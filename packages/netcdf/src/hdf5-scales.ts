/**
 * The dims of a netCDF-4 group: its dimension scales and the parents' (the
 * dims it inherits), keyed by each scale's object reference, which the
 * variables' `DIMENSION_LIST` attributes hold (not `get_attached_scales`,
 * which costs ~10 ms a call on a file with hundreds of scales); ordered by
 * `_Netcdf4Dimid`.
 */
import type { H5Metadata, H5Module, H5Wasm } from "./h5wasm.js";
import { readAttr } from "./hdf5-attrs.js";
import type { NetcdfDim, RawVariable } from "./raw.js";

/** The NAME of a scale that is a netCDF dimension without a variable. */
export const DIMENSION_ONLY_NAME = "This is a netCDF dimension but not a netCDF variable.";

/** A dataset (HDF5) of a group: a netCDF variable or dimension scale. */
export interface GroupDataset {
  name: string;
  path: string;
  metadata: H5Metadata;
  attrNames: string[];
}

/** A dimension scale: a netCDF dim. */
export interface DimensionScale {
  name: string;
  size: number;
  unlimited: boolean;
  /** The netCDF dim id (`_Netcdf4Dimid`). */
  id: number;
  /** False for a dimension-only scale (no coordinate variable). */
  variable: boolean;
  /** True for a scale of the group itself, false for a parent's. */
  own: boolean;
}

/**
 * The dimension scales among the parents' datasets (`inherited`) and the
 * group's own (`datasets`), by object reference.
 */
export function readScales(
  h5: H5Wasm,
  module: H5Module,
  fid: bigint,
  inherited: readonly GroupDataset[],
  datasets: readonly GroupDataset[],
): Map<string, DimensionScale> {
  const scales = new Map<string, DimensionScale>();
  for (const d of [...inherited, ...datasets]) {
    if (!d.attrNames.includes("CLASS")) continue;
    const cls = readAttr(module, fid, d.path, "CLASS");
    if (cls?.value[0] !== "DIMENSION_SCALE") continue;
    const scaleName = d.attrNames.includes("NAME") ? String(readAttr(module, fid, d.path, "NAME")?.value[0] ?? "") : "";
    const dimid = d.attrNames.includes("_Netcdf4Dimid")
      ? Number(readAttr(module, fid, d.path, "_Netcdf4Dimid")?.value[0])
      : scales.size;
    const ref = refKey(new h5.Dataset(fid, d.path).create_reference().ref_data);
    const size = d.metadata.shape?.[0] ?? 0;
    const max = d.metadata.maxshape?.[0];
    scales.set(ref, {
      name: d.name,
      size,
      unlimited: max === null || (max !== undefined && max > 2 ** 53),
      id: dimid,
      variable: !scaleName.startsWith(DIMENSION_ONLY_NAME),
      own: datasets.includes(d),
    });
  }
  return scales;
}

/** The scale reference of each axis, from the variable's DIMENSION_LIST attribute. */
export function dimensionList(h5: H5Wasm, fid: bigint, path: string): (string | undefined)[] {
  const list = new h5.Dataset(fid, path).get_attribute("DIMENSION_LIST", false) as unknown as {
    ref_data: ArrayLike<number>;
  }[][];
  return list.map((refs) => (refs[0] === undefined ? undefined : refKey(refs[0].ref_data)));
}

/** The length of each unlimited dim: that of its longest variable (netCDF-C's length of it). */
export function unlimitedLengths(
  scales: ReadonlyMap<string, DimensionScale>,
  variables: readonly RawVariable[],
): Map<string, number> {
  const lengths = new Map([...scales.values()].filter((s) => s.unlimited).map((s) => [s.name, s.size]));
  for (const v of variables)
    for (const d of v.dims) if (lengths.has(d.name)) lengths.set(d.name, Math.max(lengths.get(d.name)!, d.size));
  return lengths;
}

/** The group's own dims, and the parents' that its variables use: the parents' first, each by dim id. */
export function scaleDims(
  scales: ReadonlyMap<string, DimensionScale>,
  variables: readonly RawVariable[],
  lengths: ReadonlyMap<string, number>,
): NetcdfDim[] {
  const used = new Set(variables.flatMap((v) => v.dims.map((d) => d.name)));
  return [...scales.values()]
    .filter((s) => s.own || used.has(s.name))
    .sort((a, b) => Number(a.own) - Number(b.own) || a.id - b.id)
    .map(({ name, size, unlimited }) => ({ name, size: lengths.get(name) ?? size, unlimited }));
}

function refKey(bytes: ArrayLike<number>): string {
  return Array.from(bytes).join(",");
}
