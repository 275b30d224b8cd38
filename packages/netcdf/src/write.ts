/**
 * One NdRecordBatch, or a tree of groups of them, to a netCDF-4 file (HDF5
 * with netCDF-4's dimension scale conventions), readable by ncdump, xarray
 * and netCDF-C; a classic file through classic-write.ts.
 */
import type { Dataset, Group } from "h5wasm";
import { NdRecordBatch } from "@lance-nd/nd-arrow";
import { writeClassic } from "./classic-write.js";
import type { NetcdfFormat } from "./format.js";
import { DIMENSION_ONLY_NAME } from "./hdf5-scales.js";
import { NetcdfError } from "./netcdf-error.js";
import { checkOptionsFit, checkWriteOptions, refuseExisting } from "./write-options.js";
import type { WriteNetcdfOptions } from "./write-options.js";
import { FORMAT_ATTR } from "@lance-nd/cf";
import { planGroupDims } from "./group-dims.js";
import type { GroupDims, GroupToWrite } from "./group-dims.js";
import { dimensionOnlyLayout, layoutOf } from "./hdf5-layout.js";
import { hdf5ErrorText, loadH5wasm } from "./h5wasm.js";
import type { H5Module } from "./h5wasm.js";
import { writeAttrs, writeChars, writeNilValues } from "./hdf5-write.js";
import type { H5File } from "./hdf5-write.js";
import type { NumericArray } from "./raw.js";
import {
  attrValues,
  charBytes,
  charLayoutOf,
  inFileOrder,
  storedValues,
  unlimitedOf,
  variableAttrs,
} from "./stored.js";

/**
 * Writes `dataset` to a new netCDF file at `path` (an existing one only with
 * `mode: "overwrite"`, replacing it): netCDF-4
 * unless `options.format` or the global `_Format` says `classic` or
 * `64bit-offset` (see `writeClassic` for those). Each grid
 * dim becomes a netCDF dimension: the 1-D array named like the dim is its
 * coordinate variable, other dims get a dimension-only scale. Every array
 * becomes a variable with its dims and attributes; global attributes become
 * file attributes. Types: integers and floats as themselves (Float16 as
 * float), Bool as byte 0/1, Utf8 as NC_STRING, or as a char array when it has
 * `_CharDim` / `_CharDimSize` (README, "Storage attributes"); Binary as a
 * char array, as xarray writes numpy `|S<n>` (README, "Conformance"); Timestamp/Date
 * as int64/int with CF `units` ("milliseconds since 1970-01-01 00:00:00"
 * ...) unless the array has `units`. String attributes are char attributes,
 * lists of strings NC_STRING. Nulls are written as the `_FillValue` (added
 * when missing: NaN for floats, netCDF's default fill for integers).
 * Storage attributes choose chunking, compression and unlimited dims unless
 * `options` say otherwise, and the order of the variables (`_VariableOrder`),
 * and are not written.
 *
 * Throws a `NetcdfError`: `UnsupportedType` for a type netCDF (or the
 * classic format) cannot hold, naming the array; `InvalidArgument` for an
 * existing path without `mode: "overwrite"`, options of the wrong shape, an
 * option naming a dim the dataset does not have, a level out of range,
 * compression or chunks for a classic format; `WriteFailed` when HDF5 or the
 * file system fails.
 *
 * @example
 * await writeNetcdf("out.nc", batch, { compression: { codec: "deflate", level: 4 }, chunks: { time: 1 } });
 */
export async function writeNetcdf(
  path: string,
  dataset: NdRecordBatch,
  options: WriteNetcdfOptions = {},
): Promise<void> {
  return writeNetcdfGroups(path, new Map([["", dataset]]), options);
}

/**
 * Writes a tree of groups to one new netCDF-4 file at `path`, as
 * {@link writeNetcdf} writes one dataset: `groups` maps each group's path
 * (`""` the root, `"g1"`, `"g1/g2"`) to its dataset, whose global
 * attributes become the group's attributes. A group between two given ones
 * that is not given is written empty. A dim a group uses is defined in the
 * nearest group above it that has a dim of that name at that size (or
 * unlimited), as netCDF-C resolves dim names; else in the group itself
 * (README, "Groups"). Datasets that `openNetcdf(path, { group })` read from
 * one file come back as that file's tree.
 *
 * Throws as {@link writeNetcdf}; `InvalidArgument` for a group path that is
 * not a path (empty parts), or groups in a classic format.
 *
 * @example
 * await writeNetcdfGroups("tree.nc", new Map([["", root], ["g1", g1], ["g1/g2", g2]]));
 */
export async function writeNetcdfGroups(
  path: string,
  groups: ReadonlyMap<string, NdRecordBatch>,
  options: WriteNetcdfOptions = {},
): Promise<void> {
  checkWriteOptions(path, options);
  const tree = groupTree(path, groups);
  const root = tree[0]!.batch;
  const format = options.format ?? formatOf(root);
  checkOptionsFit(path, tree, format, options);
  await refuseExisting(path, options.mode);
  if (format === "netcdf4") return writeNetcdf4(path, tree, options);
  const stored = new Map(root.arrays().map(([name, array]) => [name, storedValues(name, array)] as const));
  return writeClassic(path, root, stored, { format, unlimited: options.unlimited ?? unlimitedOf(root) });
}

/** The groups of `tree` to a new netCDF-4 file at `path`; `WriteFailed` naming the variable being written. */
async function writeNetcdf4(path: string, tree: readonly GroupToWrite[], options: WriteNetcdfOptions): Promise<void> {
  const { h5, module } = await loadH5wasm();
  let file: H5File;
  try {
    file = new h5.File(path, "w", { track_order: true });
  } catch (cause) {
    throw new NetcdfError("WriteFailed", `${path}: cannot create the file (${hdf5ErrorText(cause)})`, { path, cause });
  }
  let current = "";
  try {
    const unlimited = (batch: NdRecordBatch) => new Set(options.unlimited ?? unlimitedOf(batch));
    const dims = planGroupDims(tree, unlimited);
    for (const group of tree) {
      if (group.path !== "") {
        current = group.path;
        file.create_group(group.path, true);
      }
      writeGroup(module, file, group, dims, options, unlimited(group.batch), (name) => {
        current = group.path === "" ? name : `${group.path}/${name}`;
      });
    }
  } catch (cause) {
    if (cause instanceof NetcdfError) throw cause;
    const where = current === "" ? "" : ` variable "${current}":`;
    throw new NetcdfError("WriteFailed", `${path}:${where} cannot write (${hdf5ErrorText(cause)})`, {
      path,
      variable: current || undefined,
      cause,
    });
  } finally {
    file.close();
  }
}

/**
 * The groups in writing order, parents first (siblings as given), each
 * with its arrays in the source's order; a group between given ones that is
 * not given is empty. `InvalidArgument` for a path with empty parts.
 */
function groupTree(path: string, groups: ReadonlyMap<string, NdRecordBatch>): GroupToWrite[] {
  const all = new Map<string, NdRecordBatch>();
  const empty = new NdRecordBatch([], new Map());
  for (const [group, batch] of groups) {
    const parts = group === "" ? [] : group.split("/");
    if (parts.some((p) => p === "" || p === "." || p === ".."))
      throw new NetcdfError("InvalidArgument", `${path}: "${group}" is not a group path (names joined by /)`, { path });
    for (let i = 0; i < parts.length; i++) {
      const parent = parts.slice(0, i).join("/");
      if (!all.has(parent)) all.set(parent, groups.get(parent) ?? empty);
    }
    all.set(group, batch);
  }
  if (!all.has("")) all.set("", empty);
  const depth = (group: string): number => (group === "" ? 0 : group.split("/").length);
  return [...all]
    .map(([group, batch]) => ({ path: group, batch: inFileOrder(batch) }))
    .sort((a, b) => depth(a.path) - depth(b.path));
}

/**
 * One group's variables, its own dims (their scales, numbered file-wide),
 * the scales attached to each variable (the parents' for dims it inherits)
 * and its attributes. `naming` is told which variable is being written.
 */
function writeGroup(
  module: H5Module,
  file: H5File,
  group: GroupToWrite,
  dims: GroupDims,
  options: WriteNetcdfOptions,
  unlimited: ReadonlySet<string>,
  naming: (name: string) => void,
): void {
  const dimsOf = writeVariables(module, file, group, options, unlimited, naming);
  naming("");
  const coordinates = writeScales(file, group, dims, dimsOf);
  attachScales(file, group, dims, dimsOf, coordinates, naming);
  naming("");
  const target = group.path === "" ? file : (file.get(group.path) as Group);
  writeAttrs(module, target, attrValues(group.batch.globalAttrs));
}

/** Each array of the group as a variable with its attributes; the dim names of each, as written. */
function writeVariables(
  module: H5Module,
  file: H5File,
  group: GroupToWrite,
  options: WriteNetcdfOptions,
  unlimited: ReadonlySet<string>,
  naming: (name: string) => void,
): Map<string, readonly string[]> {
  const prefix = groupPrefix(group);
  const dimsOf = new Map<string, readonly string[]>();
  for (const [name, array] of group.batch.arrays()) {
    naming(name);
    const values = storedValues(name, array);
    const char = values.kind === "numeric" ? undefined : charLayoutOf(array);
    const shape = char?.shape ?? array.shape;
    const names = char?.names ?? array.dimNames;
    dimsOf.set(name, names);
    const layout = layoutOf(array, names, shape, options, unlimited, values.kind === "strings" && char === undefined);
    const full = `${prefix}${name}`;
    if (char === undefined) {
      const dtype = values.kind === "strings" ? { dtype: "S" } : {};
      // Binary always has a char layout: what is left is numbers and NC_STRING text.
      const data = values.data as NumericArray | string[];
      file.create_dataset({ name: full, data, shape: [...shape], track_order: true, ...dtype, ...layout });
      if (values.kind === "strings" && array.values.nullCount > 0)
        writeNilValues(module, file, full, Array.from(array.values as Iterable<string | null>));
    } else writeChars(module, file, full, charBytes(values.data as string[] | Uint8Array[], char.width), shape, layout);
    writeAttrs(module, file.get(full) as Dataset, variableAttrs(array, values));
  }
  return dimsOf;
}

/**
 * The scale of each dim the group defines: its coordinate variable (a
 * variable whose only dim is its namesake), else a dimension-only dataset.
 * Returns the dims that have a coordinate variable.
 */
function writeScales(
  file: H5File,
  group: GroupToWrite,
  dims: GroupDims,
  dimsOf: ReadonlyMap<string, readonly string[]>,
): Set<string> {
  const prefix = groupPrefix(group);
  const own = dims.own.get(group.path) ?? [];
  const isCoordinate = (dim: string): boolean => dimsOf.get(dim)?.length === 1 && dimsOf.get(dim)![0] === dim;
  const coordinates = new Set(own.map((d) => d.name).filter(isCoordinate));
  for (const dim of own) {
    const scale = coordinates.has(dim.name)
      ? file.get(`${prefix}${dim.name}`)
      : file.create_dataset({
          name: `${prefix}${dim.name}`,
          data: new Float32Array(dim.size),
          shape: [dim.size],
          ...dimensionOnlyLayout(dim.size, dim.growable),
        });
    if (scale === null || !("make_scale" in scale)) throw new Error(`no dataset for dim "${dim.name}"`);
    scale.make_scale(coordinates.has(dim.name) ? dim.name : `${DIMENSION_ONLY_NAME}${String(dim.size).padStart(10)}`);
    // netCDF-4 numbers the dims of the file with this attribute (see planGroupDims).
    scale.create_attribute("_Netcdf4Dimid", new Int32Array([dim.dimid]), [], "<i");
  }
  return coordinates;
}

/** Attaches to each variable of the group the scale of each of its dims (a coordinate variable not to itself). */
function attachScales(
  file: H5File,
  group: GroupToWrite,
  dims: GroupDims,
  dimsOf: ReadonlyMap<string, readonly string[]>,
  coordinates: ReadonlySet<string>,
  naming: (name: string) => void,
): void {
  const prefix = groupPrefix(group);
  for (const [name] of group.batch.arrays()) {
    naming(name);
    const dataset = file.get(`${prefix}${name}`);
    if (dataset === null || !("attach_scale" in dataset)) continue;
    dimsOf.get(name)!.forEach((dim, axis) => {
      if (!(coordinates.has(name) && dim === name)) dataset.attach_scale(axis, dims.scalePath(group.path, dim));
    });
  }
}

/** The prefix of the paths of a group's datasets: `""` for the root, `"g1/"`. */
function groupPrefix(group: GroupToWrite): string {
  return group.path === "" ? "" : `${group.path}/`;
}

/** The format a batch read by this package records in its global `_Format`, else netCDF-4. */
function formatOf(batch: NdRecordBatch): NetcdfFormat {
  const recorded = batch.globalAttrs.get(FORMAT_ATTR)?.toJS();
  return recorded === "classic" || recorded === "64bit-offset" ? recorded : "netcdf4";
}
