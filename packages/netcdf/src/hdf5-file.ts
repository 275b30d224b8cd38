/**
 * netCDF-4 (HDF5) files through h5wasm: one group's header (the root's by
 * default) read once with as few HDF5 calls as possible, values read per
 * hyperslab on demand (hdf5-slab.ts). A group's dims are its own and those
 * of its parent groups that its variables use, as netCDF-C resolves them
 * (README, "Groups"); they come from the dimension scales (hdf5-scales.ts).
 */
import { NetcdfError } from "./netcdf-error.js";
import { hdf5ErrorText, loadH5wasm } from "./h5wasm.js";
import type { H5Module, H5Wasm } from "./h5wasm.js";
import type { NetcdfDim, RawFile } from "./raw.js";
import { readAttrs } from "./hdf5-attrs.js";
import { compressionOf } from "./hdf5-filters.js";
import { dimensionList, readScales, scaleDims, unlimitedLengths } from "./hdf5-scales.js";
import type { DimensionScale, GroupDataset } from "./hdf5-scales.js";
import { readPadded } from "./hdf5-slab.js";
import type { Hdf5Variable } from "./hdf5-slab.js";
import { ncTypeOf, typeName } from "./hdf5-types.js";

// HDF5 object types (H5O_type_t).
const H5O_GROUP = 0;
const H5O_DATASET = 1;
const H5O_NAMED_DATATYPE = 2;

/**
 * Opens a group (`""` the root, `"g1/g2"` a nested one) of a netCDF-4 / HDF5
 * file by its real path; `label` names it in messages. `GroupNotFound` lists
 * the file's groups when there is no such group. Unless `byPath`, the group
 * warns that its subgroups are not read with it (a caller that names the
 * group it opens knows of the others).
 */
export async function openHdf5(path: string, label: string, group = "", byPath = false): Promise<RawFile> {
  const { h5, module } = await loadH5wasm();
  let file: InstanceType<H5Wasm["File"]>;
  try {
    file = new h5.File(path, "r");
  } catch (cause) {
    throw new NetcdfError("InvalidFile", `${label}: not a readable netCDF-4/HDF5 file (${hdf5ErrorText(cause)})`, {
      path: label,
      cause,
    });
  }
  try {
    return readHeader(h5, module, file, label, group, byPath);
  } catch (cause) {
    file.close();
    if (cause instanceof NetcdfError) throw cause;
    throw new NetcdfError("InvalidFile", `${label}: cannot read the netCDF-4/HDF5 file (${hdf5ErrorText(cause)})`, {
      path: label,
      cause,
    });
  }
}

/** The datasets directly in group `prefix` (`""` or `"/g1/g2"`), and (into `groups` and `warnings`) what else is there. */
function groupDatasets(
  module: H5Module,
  fid: bigint,
  prefix: string,
  label: string,
  groups: string[],
  warnings: string[] | undefined,
): GroupDataset[] {
  const datasets: GroupDataset[] = [];
  for (const name of module.get_names(fid, prefix === "" ? "/" : prefix, false)) {
    const path = `${prefix}/${name}`;
    const kind = module.get_type(fid, path);
    if (kind === H5O_GROUP) groups.push(path.slice(1));
    else if (kind === H5O_NAMED_DATATYPE)
      warnings?.push(`${label}: user-defined type "${name}" is not kept (netCDF-4 enhanced types are not supported)`);
    else if (kind !== H5O_DATASET) warnings?.push(`${label}: "${name}" is not a variable; skipped`);
    else
      datasets.push({
        name,
        path,
        metadata: module.get_dataset_metadata(fid, path),
        attrNames: module.get_attribute_names(fid, path),
      });
  }
  return datasets;
}

/** Every group of the file below the root, by path (`"g1"`, `"g1/g2"`), parents first. */
function groupTree(module: H5Module, fid: bigint): string[] {
  const all: string[] = [];
  const walk = (prefix: string): void => {
    const found: string[] = [];
    for (const name of module.get_names(fid, prefix === "" ? "/" : prefix, false))
      if (module.get_type(fid, `${prefix}/${name}`) === H5O_GROUP) found.push(`${prefix}/${name}`.slice(1));
    for (const g of found) {
      all.push(g);
      walk(`/${g}`);
    }
  };
  walk("");
  return all;
}

/** The header of `group` (its dims, variables and attributes) and the slab reader of the open `file`. */
function readHeader(
  h5: H5Wasm,
  module: H5Module,
  file: InstanceType<H5Wasm["File"]>,
  label: string,
  group: string,
  byPath: boolean,
): RawFile {
  const fid = file.file_id;
  const warnings: string[] = [];
  const groups = groupTree(module, fid);
  if (group !== "" && !groups.includes(group)) {
    throw new NetcdfError(
      "GroupNotFound",
      `${label}: no group "${group}" in the file (its groups: ${groups.length === 0 ? "none" : groups.join(", ")})`,
      { path: label },
    );
  }
  const datasets = ownDatasets(module, fid, label, group, byPath, warnings);
  const scales = readScales(h5, module, fid, parentDatasets(module, fid, label, group), datasets);
  const { variables, phonyDims } = readVariables(h5, module, fid, label, datasets, scales, warnings);
  const groupPath = group === "" ? "/" : `/${group}`;
  const globalAttrs = readAttrs(
    module,
    fid,
    groupPath,
    module.get_attribute_names(fid, groupPath),
    warnings,
    (name, type) => `${label}: global attribute "${name}" has ${type}, which is not supported; skipped`,
  );
  const lengths = unlimitedLengths(scales, variables);
  return {
    format: "netcdf4",
    dims: [...scaleDims(scales, variables, lengths), ...phonyDims],
    variables: variables.map((v) => ({
      ...v,
      dims: v.dims.map((d) => ({ name: d.name, size: lengths.get(d.name) ?? d.size })),
    })),
    globalAttrs,
    groups,
    warnings,
    readSlab: (variable, start, count) =>
      Promise.resolve(readPadded(module, fid, variable as Hdf5Variable, start, count, label)),
    close: () => {
      file.close();
      return Promise.resolve();
    },
  };
}

/**
 * The datasets of `group` itself; its subgroups (unless `byPath`), named
 * types and other objects go to `warnings`.
 */
function ownDatasets(
  module: H5Module,
  fid: bigint,
  label: string,
  group: string,
  byPath: boolean,
  warnings: string[],
): GroupDataset[] {
  const inside: string[] = [];
  const datasets = groupDatasets(module, fid, group === "" ? "" : `/${group}`, label, inside, warnings);
  if (inside.length > 0 && !byPath)
    warnings.push(
      `${label}: groups are not read with ${group === "" ? "the root group" : `group "${group}"`} (open each by its path): ${inside.map((g) => `"${g}"`).join(", ")}`,
    );
  return datasets;
}

/** The datasets of the groups above `group`, root first: where the dims it inherits have their scales. */
function parentDatasets(module: H5Module, fid: bigint, label: string, group: string): GroupDataset[] {
  const parts = group === "" ? [] : group.split("/");
  return parts.flatMap((_, i) =>
    groupDatasets(module, fid, i === 0 ? "" : `/${parts.slice(0, i).join("/")}`, label, [], undefined),
  );
}

/**
 * The variables among `datasets` (not the dimension-only scales), in order,
 * and the `phony_dim_<n>` dims (one a length) of the axes no scale names.
 */
function readVariables(
  h5: H5Wasm,
  module: H5Module,
  fid: bigint,
  label: string,
  datasets: readonly GroupDataset[],
  scales: ReadonlyMap<string, DimensionScale>,
  warnings: string[],
): { variables: Hdf5Variable[]; phonyDims: NetcdfDim[] } {
  const phonyDims: NetcdfDim[] = [];
  const phonyDim = (size: number): string => {
    const found = phonyDims.find((d) => d.size === size);
    if (found !== undefined) return found.name;
    const name = `phony_dim_${phonyDims.length}`;
    phonyDims.push({ name, size, unlimited: false });
    return name;
  };
  const variables: Hdf5Variable[] = [];
  for (const d of datasets) {
    const variable = readVariable(h5, module, fid, label, d, scales, phonyDim, warnings);
    if (variable !== undefined) variables.push(variable);
  }
  return { variables, phonyDims };
}

/**
 * The variable of dataset `d`: its dims (by the scales its DIMENSION_LIST
 * names, else its own name for a 1-D scale, else `phonyDim` of the length),
 * attributes, chunking and compression. `undefined` for a dimension-only
 * scale, and for a type not supported (then a line in `warnings`).
 */
function readVariable(
  h5: H5Wasm,
  module: H5Module,
  fid: bigint,
  label: string,
  d: GroupDataset,
  scales: ReadonlyMap<string, DimensionScale>,
  phonyDim: (size: number) => string,
  warnings: string[],
): Hdf5Variable | undefined {
  const { metadata } = d;
  const type = ncTypeOf(metadata);
  const scale = [...scales.values()].find((s) => s.own && s.name === d.name);
  if (scale !== undefined && !scale.variable) return undefined;
  if (type === undefined || metadata.shape === null) {
    warnings.push(`${label}: variable "${d.name}" has ${typeName(metadata)}, which is not supported; skipped`);
    return undefined;
  }
  const shape = metadata.shape;
  const attached = d.attrNames.includes("DIMENSION_LIST") ? dimensionList(h5, fid, d.path) : [];
  const dims = shape.map((size, axis) => {
    const found = attached[axis] === undefined ? undefined : scales.get(attached[axis]!);
    if (found !== undefined) return { name: found.name, size };
    if (scale !== undefined && shape.length === 1) return { name: d.name, size };
    return { name: phonyDim(size), size };
  });
  const attrs = readAttrs(
    module,
    fid,
    d.path,
    d.attrNames,
    warnings,
    (name, attrType) =>
      `${label}: variable "${d.name}" attribute "${name}" has ${attrType}, which is not supported; skipped`,
  );
  const chunking = metadata.chunks === null ? null : [...metadata.chunks];
  return {
    name: d.name,
    path: d.path,
    metadata,
    extent: shape,
    type,
    dims,
    attrs,
    chunking,
    compression: chunking === null ? null : compressionOf(module.get_dataset_filters(fid, d.path)),
  };
}
