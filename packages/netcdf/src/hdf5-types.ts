/**
 * HDF5 types as netCDF types: the netCDF type of a dataset or attribute
 * from h5wasm's metadata, the typed array of each numeric type, and the
 * names messages give the types netCDF-4 files hold and nd-arrow does not.
 */
import type { NcType, NumericArray } from "./raw.js";

// HDF5 type classes (H5T_class_t).
const H5T_INTEGER = 0;
const H5T_FLOAT = 1;
export const H5T_STRING = 3;

/** netCDF's names of the HDF5 type classes a netCDF-4 file can hold (H5T_class_t), for messages. */
const CLASS_NAMES: Readonly<Record<number, string>> = {
  0: "integer",
  1: "float",
  2: "HDF5 time",
  3: "string",
  4: "HDF5 bitfield",
  5: "opaque",
  6: "compound",
  7: "HDF5 reference",
  8: "enum",
  9: "vlen",
  10: "HDF5 array",
};

/** A type as netCDF names it in messages: "the netCDF compound type", "a 2-byte float type". */
export function typeName(m: { type: number; size: number }): string {
  const name = CLASS_NAMES[m.type] ?? `HDF5 type class ${m.type}`;
  if (m.type === H5T_INTEGER || m.type === H5T_FLOAT) return `a ${m.size}-byte ${name} type`;
  return name.startsWith("HDF5") ? `the ${name} type` : `the netCDF ${name} type`;
}

/** The numeric netCDF types. */
export type Numeric = Exclude<NcType, "char" | "string">;

/** The typed array of each numeric netCDF type. */
export const TYPED: Record<Numeric, new (buffer: ArrayBuffer) => NumericArray> = {
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

/** The netCDF type of an HDF5 type, or `undefined` when netCDF (or this package) has none for it. */
export function ncTypeOf(m: { type: number; size: number; signed: boolean; vlen: boolean }): NcType | undefined {
  // netCDF-4 stores NC_CHAR as one-byte fixed strings; longer fixed strings
  // (written by other HDF5 tools) are whole strings.
  if (m.type === H5T_STRING) return m.vlen || m.size > 1 ? "string" : "char";
  if (m.type === H5T_FLOAT) return m.size === 4 ? "float" : m.size === 8 ? "double" : undefined;
  if (m.type !== H5T_INTEGER) return undefined;
  const bySize: Record<number, [NcType, NcType]> = {
    1: ["byte", "ubyte"],
    2: ["short", "ushort"],
    4: ["int", "uint"],
    8: ["int64", "uint64"],
  };
  const pair = bySize[m.size];
  return pair === undefined ? undefined : m.signed ? pair[0] : pair[1];
}
