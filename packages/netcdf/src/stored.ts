/**
 * What both writers (netCDF-4 and classic) store: each array's values with
 * nulls as its fill value, attributes as netCDF values, CF units of times,
 * and the dims in the source file's order (README, "Storage attributes").
 */
import { DateUnit, Precision, Type } from "apache-arrow";
import type { DataType, Date_, Float, Timestamp, Vector } from "apache-arrow";
import { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { Attrs, NdArray } from "@lance-nd/nd-arrow";
import { NetcdfError } from "./netcdf-error.js";
import {
  BYTE_ATTRS_ATTR,
  CHAR_DIM_ATTR,
  CHAR_DIM_SIZE_ATTR,
  DIM_ORDER_ATTR,
  STORAGE_ATTRS,
  STRING_ATTRS_ATTR,
  UNLIMITED_ATTR,
  UNUSED_DIMS_ATTR,
  UNUSED_DIM_SIZES_ATTR,
  VARIABLE_ORDER_ATTR,
} from "@lance-nd/cf";
import { latin1Bytes } from "./raw.js";
import type { NumericArray } from "./raw.js";

/** What an Arrow type is stored as: a numeric typed array, strings, or byte strings (Binary, stored as char). */
export type Stored =
  | { kind: "numeric"; data: NumericArray }
  | { kind: "strings"; data: string[] }
  | { kind: "bytes"; data: Uint8Array[] };

/** netCDF's default fill values, used for nulls of integer arrays without a `_FillValue`. */
const DEFAULT_FILL: Record<string, number | bigint> = {
  Int8Array: -127,
  Uint8Array: 255,
  Int16Array: -32767,
  Uint16Array: 65535,
  Int32Array: -2147483647,
  Uint32Array: 4294967295,
  BigInt64Array: -9223372036854775806n,
  BigUint64Array: 18446744073709551614n,
};

/**
 * The dims of the file a batch is written to, in the source file's order
 * (the global `_DimOrder`; dims it does not name follow in grid order): the
 * grid, the char dims of char variables, and the dims the source had that no
 * variable used (`_UnusedDims`, `_UnusedDimSizes`).
 */
export function fileDims(batch: NdRecordBatch): { name: string; size: number }[] {
  const dims: { name: string; size: number }[] = [...batch.grid()];
  const add = (name: string, size: number): void => {
    if (!dims.some((d) => d.name === name)) dims.push({ name, size });
  };
  for (const [, array] of batch.arrays()) {
    const dim = charLayoutOf(array)?.dim;
    if (dim !== undefined) add(dim.name, dim.size);
  }
  const unused = batch.globalAttrs.get(UNUSED_DIMS_ATTR)?.toJS();
  const sizes = batch.globalAttrs.get(UNUSED_DIM_SIZES_ATTR)?.toJS();
  if (Array.isArray(unused) && Array.isArray(sizes)) {
    for (const [i, name] of unused.entries()) add(String(name), Number(sizes[i] ?? 0));
  }
  const recorded = batch.globalAttrs.get(DIM_ORDER_ATTR)?.toJS();
  if (!Array.isArray(recorded)) return dims;
  const rank = new Map(recorded.map((name, i) => [String(name), i]));
  const at = new Map(dims.map((d, i) => [d.name, i]));
  const key = (name: string): number => rank.get(name) ?? recorded.length + at.get(name)!;
  return dims.sort((a, b) => key(a.name) - key(b.name));
}

/**
 * The batch with its arrays in the source file's order (the global
 * `_VariableOrder`; arrays it does not name follow in batch order), the
 * order both writers create the variables in, so xarray lists them as it
 * lists the source's.
 */
export function inFileOrder(batch: NdRecordBatch): NdRecordBatch {
  const recorded = batch.globalAttrs.get(VARIABLE_ORDER_ATTR)?.toJS();
  if (!Array.isArray(recorded)) return batch;
  const arrays = batch.arrays();
  const rank = new Map(recorded.map((name, i) => [String(name), i]));
  const key = (name: string, at: number): number => rank.get(name) ?? recorded.length + at;
  const ordered = arrays
    .map(([name, array], at) => ({ name, array, key: key(name, at) }))
    .sort((a, b) => a.key - b.key)
    .map(({ name, array }): [string, NdArray] => [name, array]);
  return ordered.every(([name], i) => name === arrays[i]![0]) ? batch : new NdRecordBatch(ordered, batch.globalAttrs);
}

/** The unlimited dims a batch read by this package records in its global `_Unlimited`. */
export function unlimitedOf(batch: NdRecordBatch): string[] {
  const value = batch.globalAttrs.get(UNLIMITED_ATTR)?.toJS();
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.map(String) : [];
}

/**
 * How a string array read from a char variable is stored: its `_CharDim`
 * (the last dim, folded into the strings on read; none for a scalar char
 * variable, which has `_CharDimSize` 1 alone) and the bytes per string.
 * A Binary array (numpy `|S<n>`, e.g. from Zarr) is a char array as xarray
 * writes one: its `_CharDimSize` wide (widened to its longest value), the
 * char dim `_CharDim` or `string<width>`.
 */
export interface CharLayout {
  /** The char dim, or `undefined` for a scalar char variable. */
  readonly dim: { readonly name: string; readonly size: number } | undefined;
  /** The dims of the char variable: the array's, then the char dim. */
  readonly names: readonly string[];
  /** Its shape. */
  readonly shape: readonly number[];
  /** Bytes per string. */
  readonly width: number;
}

/** The char layout of a string array read from a char variable (its `_CharDim` / `_CharDimSize`) or of a Binary array, else `undefined`. */
export function charLayoutOf(array: NdArray): CharLayout | undefined {
  const name = array.attr(CHAR_DIM_ATTR);
  const size = array.attr(CHAR_DIM_SIZE_ATTR);
  if (array.type.typeId === Type.Binary || array.type.typeId === Type.LargeBinary) {
    let width = typeof size === "number" && size > 0 ? size : 1;
    for (const value of array.values as Iterable<Uint8Array | null>)
      if (value !== null) width = Math.max(width, value.length);
    // A scalar char variable read as bytes (one byte, no char dim) stays scalar, as its text does.
    if (array.shape.length === 0 && typeof name !== "string" && size === 1 && width === 1)
      return { dim: undefined, names: [], shape: [], width: 1 };
    const dim = { name: typeof name === "string" && width === size ? name : `string${width}`, size: width };
    return { dim, names: [...array.dimNames, dim.name], shape: [...array.shape, width], width };
  }
  if (typeof size !== "number") return undefined;
  if (array.type.typeId !== Type.Utf8 && array.type.typeId !== Type.LargeUtf8) return undefined;
  if (typeof name !== "string") {
    if (array.shape.length > 0 || size !== 1) return undefined;
    return { dim: undefined, names: [], shape: [], width: 1 };
  }
  return { dim: { name, size }, names: [...array.dimNames, name], shape: [...array.shape, size], width: size };
}

/** Strings as `width`-byte UTF-8 char rows (byte strings as they are), NUL-padded (cut at `width` bytes): a char variable's bytes. */
export function charBytes(values: readonly string[] | readonly Uint8Array[], width: number): Uint8Array {
  const out = new Uint8Array(values.length * width);
  const encoder = new TextEncoder();
  values.forEach((value, i) => {
    const row = out.subarray(i * width, (i + 1) * width);
    if (typeof value === "string") encoder.encodeInto(value, row);
    else row.set(value.subarray(0, width));
  });
  return out;
}

/** The values of an array as netCDF stores them; nulls become the fill value. */
export function storedValues(name: string, array: NdArray): Stored {
  const { values } = array;
  const type = values.type;
  if (type.typeId === Type.Utf8 || type.typeId === Type.LargeUtf8) {
    return { kind: "strings", data: Array.from(values as Iterable<string | null>, (s) => s ?? "") };
  }
  if (type.typeId === Type.Binary || type.typeId === Type.LargeBinary) {
    const fill = new TextEncoder().encode(
      typeof array.attr("_FillValue") === "string" ? String(array.attr("_FillValue")) : "",
    );
    return { kind: "bytes", data: Array.from(values as Iterable<Uint8Array | null>, (b) => b ?? fill) };
  }
  let data: NumericArray;
  switch (type.typeId) {
    case Type.Int:
    case Type.Float:
    case Type.Timestamp:
    case Type.Date:
      data = isFloat16(type) ? Float32Array.from(values as Iterable<number>) : contiguous(values);
      break;
    case Type.Bool:
      data = Int8Array.from(values as Iterable<boolean | null>, (b) => (b ? 1 : 0));
      break;
    default:
      throw new NetcdfError("UnsupportedType", `array "${name}" has type ${String(type)}, which netCDF cannot hold`, {
        variable: name,
      });
  }
  if (values.nullCount > 0) {
    data = data.slice() as NumericArray;
    const fill = fillValue(array, data);
    for (let i = 0; i < values.length; i++) if (!values.isValid(i)) data[i] = fill as never;
  }
  return { kind: "numeric", data };
}

/** The values as one typed array: a view when the vector has one chunk. */
function contiguous(values: Vector): NumericArray {
  const [only, ...rest] = values.data;
  if (only !== undefined && rest.length === 0) return only.values as NumericArray;
  return values.toArray() as NumericArray;
}

function isFloat16(type: DataType): boolean {
  return type.typeId === Type.Float && (type as Float).precision === Precision.HALF;
}

/** The fill value of an array: its `_FillValue`, else NaN for floats, else netCDF's default. */
function fillValue(array: NdArray, data: NumericArray): number | bigint {
  const own = array.attrs.get("_FillValue");
  if (own !== undefined && !own.isList) return own.value.get(0) as number | bigint;
  return DEFAULT_FILL[data.constructor.name] ?? Number.NaN;
}

/** A char attribute of bytes that are not UTF-8, written byte for byte (`_ByteAttrs`). */
export class CharBytes {
  constructor(readonly bytes: Uint8Array) {}
}

/** An attribute as written: numbers, a char attribute (string, or bytes) or an NC_STRING list (`null` a NIL string). */
export type AttrValue = NumericArray | string | CharBytes | (string | null)[];

/** The attributes to write: the array's, a `_FillValue` when nulls were filled, CF units of times. */
export function variableAttrs(array: NdArray, stored: Stored): Map<string, AttrValue> {
  const attrs = attrValues(array.attrs);
  // netCDF-C takes one char as a char variable's _FillValue: a longer one of byte strings (Zarr's |S<n>) is left out.
  const fill = attrs.get("_FillValue");
  if (stored.kind === "bytes" && typeof fill === "string" && new TextEncoder().encode(fill).length !== 1)
    attrs.delete("_FillValue");
  if (stored.kind === "numeric" && array.values.nullCount > 0 && !attrs.has("_FillValue")) {
    const Typed = stored.data.constructor as unknown as { of(v: number | bigint): NumericArray };
    attrs.set("_FillValue", Typed.of(fillValue(array, stored.data)));
  }
  const units = timeUnits(array.type);
  if (units !== undefined && !attrs.has("units")) attrs.set("units", units);
  return attrs;
}

/** CF unit names by Arrow TimeUnit (SECOND, MILLISECOND, MICROSECOND, NANOSECOND). */
const UNIT_NAMES = ["seconds", "milliseconds", "microseconds", "nanoseconds"];

/** CF units of a Timestamp or Date array (raw values since the Unix epoch). */
function timeUnits(type: DataType): string | undefined {
  if (type.typeId === Type.Timestamp) {
    return `${UNIT_NAMES[(type as Timestamp).unit]} since 1970-01-01 00:00:00`;
  }
  if (type.typeId === Type.Date) {
    return `${(type as Date_).unit === DateUnit.DAY ? "days" : "milliseconds"} since 1970-01-01`;
  }
  return undefined;
}

/**
 * nd-arrow attributes as netCDF ones: Bool as byte, Float16 as float,
 * temporal as raw integers; Utf8 as char (the bytes of one named in
 * `_ByteAttrs`), a list (or an attribute named in `_StringAttrs`) as
 * NC_STRING.
 */
export function attrValues(attrs: Attrs): Map<string, AttrValue> {
  const out = new Map<string, AttrValue>();
  const recorded = attrs.get(STRING_ATTRS_ATTR)?.toJS();
  const ncStrings = new Set(Array.isArray(recorded) ? recorded.map(String) : []);
  const byteAttrs = attrs.get(BYTE_ATTRS_ATTR)?.toJS();
  const latin1 = new Set(
    typeof byteAttrs === "string" ? [byteAttrs] : Array.isArray(byteAttrs) ? byteAttrs.map(String) : [],
  );
  for (const [key, attr] of attrs) {
    if (STORAGE_ATTRS.has(key)) continue;
    const item = attr.itemType;
    if (item.typeId === Type.Utf8 || item.typeId === Type.LargeUtf8) {
      const strings = Array.from(attr.value as Iterable<string | null>);
      if (!attr.isList && latin1.has(key)) out.set(key, new CharBytes(latin1Bytes(strings[0] ?? "")));
      else out.set(key, attr.isList || ncStrings.has(key) ? strings : (strings[0] ?? ""));
    } else if (item.typeId === Type.Bool) {
      out.set(
        key,
        Int8Array.from(attr.value as Iterable<boolean | null>, (b) => (b ? 1 : 0)),
      );
    } else {
      out.set(key, isFloat16(item) ? Float32Array.from(attr.value as Iterable<number>) : contiguous(attr.value));
    }
  }
  return out;
}
