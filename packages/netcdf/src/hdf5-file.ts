/**
 * netCDF-4 (HDF5) files through h5wasm: one group's header (the root's by
 * default) read once with as few HDF5 calls as possible, values read per
 * hyperslab on demand. A group's dims are its own and those of its parent
 * groups that its variables use, as netCDF-C resolves them (README,
 * "Groups").
 * Dims come from the dimension scales (`DIMENSION_LIST` references matched to
 * each scale's own reference, not `get_attached_scales`, which costs ~10 ms a
 * call on a file with hundreds of scales), ordered by `_Netcdf4Dimid`.
 */
import { NetcdfError } from "./netcdf-error.js";
import { overlapCount, padSlab } from "./ragged.js";
import { hdf5ErrorText, loadH5wasm } from "./h5wasm.js";
import type { H5Metadata, H5Module, H5Wasm } from "./h5wasm.js";
import type { NetcdfCompression, NetcdfDim, RawAttr, RawFile, RawVariable, SlabValues } from "./raw.js";
import { HIDDEN_ATTRS, fixedStrings, readAttr, viaHeap } from "./hdf5-attrs.js";
import { TYPED, ncTypeOf, typeName } from "./hdf5-types.js";
import { vlenSlab } from "./hdf5-strings.js";

/** The NAME of a scale that is a netCDF dimension without a variable. */
export const DIMENSION_ONLY_NAME = "This is a netCDF dimension but not a netCDF variable.";

// HDF5 object types (H5O_type_t).
const H5O_GROUP = 0;
const H5O_DATASET = 1;
const H5O_NAMED_DATATYPE = 2;

/** HDF5 filter ids by the codec names of `NetcdfCompression`. */
export const FILTERS: Readonly<Record<number, string>> = {
  1: "deflate",
  4: "szip",
  32001: "blosc",
  32004: "lz4",
  32015: "zstd",
  307: "bzip2",
};
const SHUFFLE = 2;
const FLETCHER32 = 3;
/** The filters built into h5wasm's HDF5 (deflate, shuffle, fletcher32, szip, nbit, scaleoffset); others are plugins. */
const BUILT_IN_FILTERS = new Set([1, 2, 3, 4, 5, 6]);

interface Hdf5Variable extends RawVariable {
  readonly path: string;
  readonly metadata: H5Metadata;
  /** The stored shape: shorter than `dims` along an unlimited dim another variable is longer on. */
  readonly extent: readonly number[];
}

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

/** A dataset (HDF5) of a group: a netCDF variable or dimension scale. */
interface GroupDataset {
  name: string;
  path: string;
  metadata: H5Metadata;
  attrNames: string[];
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
  const prefix = group === "" ? "" : `/${group}`;
  const inside: string[] = [];
  const datasets = groupDatasets(module, fid, prefix, label, inside, warnings);
  if (inside.length > 0 && !byPath)
    warnings.push(
      `${label}: groups are not read with ${group === "" ? "the root group" : `group "${group}"`} (open each by its path): ${inside.map((g) => `"${g}"`).join(", ")}`,
    );
  // The parents' datasets, for the dims the group inherits (a scale in a parent group).
  const parts = group === "" ? [] : group.split("/");
  const inherited = parts.flatMap((_, i) =>
    groupDatasets(module, fid, i === 0 ? "" : `/${parts.slice(0, i).join("/")}`, label, [], undefined),
  );

  // Dimension scales: name, size, unlimited, netCDF dim id, and their object reference.
  const scales = new Map<
    string,
    { name: string; size: number; unlimited: boolean; id: number; variable: boolean; own: boolean }
  >();
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
  const phony = new Map<number, string>();
  const phonyDims: NetcdfDim[] = [];
  const variables: Hdf5Variable[] = [];
  for (const d of datasets) {
    const { metadata } = d;
    const type = ncTypeOf(metadata);
    const scale = [...scales.values()].find((s) => s.own && s.name === d.name);
    if (scale !== undefined && !scale.variable) continue;
    if (type === undefined || metadata.shape === null) {
      warnings.push(`${label}: variable "${d.name}" has ${typeName(metadata)}, which is not supported; skipped`);
      continue;
    }
    const shape = metadata.shape;
    const attached = d.attrNames.includes("DIMENSION_LIST") ? dimensionList(h5, fid, d.path) : [];
    const dims = shape.map((size, axis) => {
      const found = attached[axis] === undefined ? undefined : scales.get(attached[axis]!);
      if (found !== undefined) return { name: found.name, size };
      if (scale !== undefined && shape.length === 1) return { name: d.name, size };
      let name = phony.get(size);
      if (name === undefined) {
        name = `phony_dim_${phony.size}`;
        phony.set(size, name);
        phonyDims.push({ name, size, unlimited: false });
      }
      return { name, size };
    });
    const attrs: RawAttr[] = [];
    for (const attrName of d.attrNames) {
      if (HIDDEN_ATTRS.has(attrName)) continue;
      const a = readAttr(module, fid, d.path, attrName);
      if (a === undefined)
        warnings.push(
          `${label}: variable "${d.name}" attribute "${attrName}" has ${typeName(module.get_attribute_metadata(fid, d.path, attrName))}, which is not supported; skipped`,
        );
      else attrs.push(a);
    }
    const chunking = metadata.chunks === null ? null : [...metadata.chunks];
    variables.push({
      name: d.name,
      path: d.path,
      metadata,
      extent: shape,
      type,
      dims,
      attrs,
      chunking,
      compression: chunking === null ? null : compressionOf(module.get_dataset_filters(fid, d.path)),
    });
  }
  const globalAttrs: RawAttr[] = [];
  const groupPath = prefix === "" ? "/" : prefix;
  for (const attrName of module.get_attribute_names(fid, groupPath)) {
    if (HIDDEN_ATTRS.has(attrName)) continue;
    const a = readAttr(module, fid, groupPath, attrName);
    if (a === undefined)
      warnings.push(
        `${label}: global attribute "${attrName}" has ${typeName(module.get_attribute_metadata(fid, groupPath, attrName))}, which is not supported; skipped`,
      );
    else globalAttrs.push(a);
  }
  // An unlimited dim is as long as its longest variable (netCDF-C's length of it).
  const unlimitedSize = new Map([...scales.values()].filter((s) => s.unlimited).map((s) => [s.name, s.size]));
  for (const v of variables)
    for (const d of v.dims)
      if (unlimitedSize.has(d.name)) unlimitedSize.set(d.name, Math.max(unlimitedSize.get(d.name)!, d.size));
  const sized = variables.map((v) => ({
    ...v,
    dims: v.dims.map((d) => ({ name: d.name, size: unlimitedSize.get(d.name) ?? d.size })),
  }));
  // The group's own dims, and the parents' that its variables use.
  const used = new Set(variables.flatMap((v) => v.dims.map((d) => d.name)));
  const dims = [
    ...[...scales.values()]
      .filter((s) => s.own || used.has(s.name))
      .sort((a, b) => Number(a.own) - Number(b.own) || a.id - b.id)
      .map(({ name, size, unlimited }) => ({ name, size: unlimitedSize.get(name) ?? size, unlimited })),
    ...phonyDims,
  ];
  return {
    format: "netcdf4",
    dims,
    variables: sized,
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

function refKey(bytes: ArrayLike<number>): string {
  return Array.from(bytes).join(",");
}

/** The scale reference of each axis, from the variable's DIMENSION_LIST attribute. */
function dimensionList(h5: H5Wasm, fid: bigint, path: string): (string | undefined)[] {
  const list = new h5.Dataset(fid, path).get_attribute("DIMENSION_LIST", false) as unknown as {
    ref_data: ArrayLike<number>;
  }[][];
  return list.map((refs) => (refs[0] === undefined ? undefined : refKey(refs[0].ref_data)));
}

/**
 * The filters of a dataset that HDF5 could not load (`id (name)`), when
 * `cause` is HDF5's "required filter ... is not registered"; else none.
 */
function missingFilters(module: H5Module, fid: bigint, path: string, cause: unknown): string[] {
  if (!String(cause instanceof Error ? cause.message : cause).includes("is not registered")) return [];
  return module
    .get_dataset_filters(fid, path)
    .filter((f) => !BUILT_IN_FILTERS.has(f.id))
    .map((f) => `${f.id}${FILTERS[f.id] === undefined ? "" : ` (${FILTERS[f.id]})`}`);
}

function compressionOf(filters: { id: number; cd_values: number[] }[]): NetcdfCompression | null {
  const shuffle = filters.some((f) => f.id === SHUFFLE);
  const codec = filters.find((f) => f.id !== SHUFFLE && f.id !== FLETCHER32);
  if (codec === undefined) return shuffle ? { codec: "none", shuffle } : null;
  const name = FILTERS[codec.id] ?? `filter-${codec.id}`;
  const level = codec.id === 1 || codec.id === 32015 || codec.id === 307 ? codec.cd_values[0] : undefined;
  return level === undefined ? { codec: name, shuffle } : { codec: name, level, shuffle };
}

/** A slab of a variable, filled with its fill value past its own extent (ragged.ts). */
function readPadded(
  module: H5Module,
  fid: bigint,
  v: Hdf5Variable,
  start: readonly number[],
  count: readonly number[],
  label: string,
): SlabValues {
  if (count.every((c, i) => start[i]! + c <= v.extent[i]!)) return readSlab(module, fid, v, start, count, label);
  const overlap = overlapCount(v.extent, start, count);
  const inner = readSlab(module, fid, v, start, overlap, label);
  return padSlab(v.type, v.attrs, inner, overlap, count);
}

function readSlab(
  module: H5Module,
  fid: bigint,
  v: Hdf5Variable,
  start: readonly number[],
  count: readonly number[],
  label: string,
): SlabValues {
  try {
    const total = count.reduce((n, c) => n * c, 1);
    const { metadata } = v;
    if (v.type === "string" && metadata.vlen) return { strings: vlenSlab(module, fid, v.path, start, count, total) };
    const rank0 = start.length === 0;
    const buffer = viaHeap(module, metadata.size * total, (p) => {
      if (total === 0) return;
      module.get_dataset_data(
        fid,
        v.path,
        rank0 ? null : count.map(BigInt),
        rank0 ? null : start.map(BigInt),
        rank0 ? null : count.map(() => 1n),
        p,
      );
    });
    if (v.type === "char") return { chars: new Uint8Array(buffer, 0, total) };
    if (v.type === "string") return { strings: fixedStrings(buffer, metadata.size, total) };
    return new TYPED[v.type](
      buffer.byteLength === metadata.size * total ? buffer : buffer.slice(0, metadata.size * total),
    );
  } catch (cause) {
    const missing = missingFilters(module, fid, v.path, cause);
    if (missing.length > 0) {
      throw new NetcdfError(
        "UnsupportedFilter",
        `${label}: cannot read variable "${v.name}": it needs HDF5 filter ${missing.join(", ")}, which neither h5wasm nor h5wasm-plugins provides`,
        { path: label, variable: v.name, cause },
      );
    }
    throw new NetcdfError("InvalidFile", `${label}: cannot read variable "${v.name}" (${hdf5ErrorText(cause)})`, {
      path: label,
      variable: v.name,
      cause,
    });
  }
}
