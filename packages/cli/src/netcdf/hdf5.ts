/**
 * netCDF-4 (HDF5) reader over h5wasm: the root group's datasets with their
 * dimension scales, attributes and whole-variable typed arrays.
 */
import type { Attribute, Dataset } from "h5wasm";
import { CliError } from "../errors.js";
import { hdf5ErrorText, loadH5wasm } from "./h5wasm.js";
import { utf8FromCharRows, utf8FromStrings } from "./raw.js";
import type { NcType, NumericArray, RawAttr, RawDataset, RawVariable, Utf8Values } from "./raw.js";

/** The NAME of a scale that is a netCDF dimension without a variable. */
export const DIMENSION_ONLY_NAME = "This is a netCDF dimension but not a netCDF variable.";

/** HDF5 / netCDF-4 bookkeeping attributes: not user attributes. */
const HIDDEN_ATTRS = new Set([
  "CLASS",
  "NAME",
  "REFERENCE_LIST",
  "DIMENSION_LIST",
  "_Netcdf4Dimid",
  "_Netcdf4Coordinates",
  "_NCProperties",
  "_nc3_strict",
  "_IsNetcdf4",
  "_SuperblockVersion",
]);

// HDF5 type classes (H5T_class_t).
const H5T_INTEGER = 0;
const H5T_FLOAT = 1;
const H5T_STRING = 3;

type Numeric = Exclude<NcType, "char" | "string">;

/** The typed array of each numeric netCDF type. */
const TYPED: Record<Numeric, { from(values: ArrayLike<never>): NumericArray; new (n: number): NumericArray }> = {
  byte: Int8Array,
  ubyte: Uint8Array,
  short: Int16Array,
  ushort: Uint16Array,
  int: Int32Array,
  uint: Uint32Array,
  int64: BigInt64Array,
  uint64: BigUint64Array,
  float: Float32Array,
  double: Float64Array,
};

/** Reads the root group of a netCDF-4 / HDF5 file by its path. */
export async function readHdf5(path: string): Promise<RawDataset> {
  const h5 = await loadH5wasm();
  let file: InstanceType<typeof h5.File>;
  try {
    file = new h5.File(path, "r");
  } catch (cause) {
    throw new CliError("InvalidFile", `${path}: not a readable netCDF-4/HDF5 file (${hdf5ErrorText(cause)})`, {
      path,
      cause,
    });
  }
  try {
    const warnings: string[] = [];
    const variables: RawVariable[] = [];
    const groups: string[] = [];
    const phony = new Map<number, string>();
    for (const name of file.keys()) {
      const entity = file.get(name);
      const kind = entity !== null && "type" in entity ? String(entity.type) : "reference";
      if (kind === "Group") {
        groups.push(name);
      } else if (kind !== "Dataset") {
        warnings.push(`${path}: "${name}" is not a variable (${kind}); skipped`);
      } else {
        const variable = readVariable(entity as Dataset, name, phony, path, warnings);
        if (variable !== undefined) variables.push(variable);
      }
    }
    if (groups.length > 0) {
      warnings.push(`${path}: groups are not imported, only the root group: ${groups.map((g) => `"${g}"`).join(", ")}`);
    }
    return { variables, globalAttrs: readAttrs(file.attrs, path, "global", warnings), warnings };
  } catch (cause) {
    if (cause instanceof CliError) throw cause;
    throw new CliError("InvalidFile", `${path}: cannot read the netCDF-4/HDF5 file (${hdf5ErrorText(cause)})`, {
      path,
      cause,
    });
  } finally {
    file.close();
  }
}

function readVariable(
  dataset: Dataset,
  name: string,
  phony: Map<number, string>,
  path: string,
  warnings: string[],
): RawVariable | undefined {
  const attrs = dataset.attrs;
  const scaleName = attrs.NAME === undefined ? undefined : attrs.NAME.value;
  if (typeof scaleName === "string" && scaleName.startsWith(DIMENSION_ONLY_NAME)) return undefined;
  const metadata = dataset.metadata;
  const type = ncTypeOf(metadata);
  if (type === undefined || metadata.shape === null) {
    warnings.push(`${path}: variable "${name}" has an unsupported HDF5 type (class ${metadata.type}); skipped`);
    return undefined;
  }
  const shape = metadata.shape;
  const hasDimList = attrs.DIMENSION_LIST !== undefined;
  const isScale = attrs.CLASS?.value === "DIMENSION_SCALE";
  const dims = shape.map((size, axis) => {
    const scale = hasDimList ? dataset.get_attached_scales(axis)[0] : undefined;
    if (scale !== undefined) return { name: scale.slice(scale.lastIndexOf("/") + 1), size };
    if (isScale && shape.length === 1) return { name, size };
    return { name: phonyDim(phony, size), size };
  });
  const raw = dataset.value;
  const values = type === "char" || type === "string" ? stringValues(raw, type, dims) : numericValues(raw, type);
  const userAttrs = readAttrs(attrs, path, `variable "${name}"`, warnings);
  return { name, type, dims: type === "char" ? dims.slice(0, -1) : dims, values, attrs: userAttrs };
}

/** netCDF-C names unnamed dims phony_dim_N, one per distinct size. */
function phonyDim(phony: Map<number, string>, size: number): string {
  let name = phony.get(size);
  if (name === undefined) {
    name = `phony_dim_${phony.size}`;
    phony.set(size, name);
  }
  return name;
}

function ncTypeOf(m: { type: number; size: number; signed: boolean; vlen: boolean }): NcType | undefined {
  // netCDF-4 stores NC_CHAR as one-byte fixed strings; longer fixed strings
  // (written by other HDF5 tools) are whole strings.
  if (m.type === H5T_STRING) return m.vlen || m.size > 1 ? "string" : "char";
  if (m.type === H5T_FLOAT) return m.size === 4 ? "float" : m.size === 8 ? "double" : undefined;
  if (m.type !== H5T_INTEGER) return undefined;
  switch (m.size) {
    case 1:
      return m.signed ? "byte" : "ubyte";
    case 2:
      return m.signed ? "short" : "ushort";
    case 4:
      return m.signed ? "int" : "uint";
    case 8:
      return m.signed ? "int64" : "uint64";
    default:
      return undefined;
  }
}

/** A numeric value from h5wasm (a typed array, or a number / bigint for scalars) as a typed array. */
function numericValues(raw: unknown, type: Numeric): NumericArray {
  const Typed = TYPED[type];
  if (ArrayBuffer.isView(raw) && raw.constructor === Typed) return raw as NumericArray;
  return Typed.from((Array.isArray(raw) ? raw : [raw]) as never[]);
}

/**
 * Strings from h5wasm: NC_STRING (vlen) as is; NC_CHAR arrays (fixed strings
 * of one byte) collapse their last dim into strings.
 */
function stringValues(raw: unknown, type: "char" | "string", dims: readonly { size: number }[]): Utf8Values {
  const strings = (Array.isArray(raw) ? raw : [raw]).map(String);
  const width = dims.at(-1)?.size;
  if (type === "string" || width === undefined) return utf8FromStrings(strings);
  const chars = Uint8Array.from(strings, (s) => (s.length === 0 ? 0 : s.charCodeAt(0)));
  return utf8FromCharRows(chars, strings.length / Math.max(width, 1), width);
}

function readAttrs(attrs: Record<string, Attribute>, path: string, owner: string, warnings: string[]): RawAttr[] {
  const out: RawAttr[] = [];
  for (const [name, attr] of Object.entries(attrs)) {
    if (HIDDEN_ATTRS.has(name)) continue;
    const m = attr.metadata;
    // Fixed-length string attributes are netCDF char attributes, vlen ones NC_STRING.
    const type = m.type === H5T_STRING ? (m.vlen ? "string" : "char") : ncTypeOf(m);
    if (type === undefined) {
      warnings.push(`${path}: ${owner} attribute "${name}" has an unsupported HDF5 type; skipped`);
      continue;
    }
    const value = attr.value;
    out.push(
      type === "char" || type === "string"
        ? { name, type, value: (Array.isArray(value) ? value : [value]).map(String) }
        : { name, type, value: numericValues(value, type) },
    );
  }
  return out;
}
