/**
 * Stored types by their numpy names, the typed arrays that hold them, and
 * netCDF's default fill value of each (netCDF-C `netcdf.h`, `NC_FILL_*`).
 */
import { Float32, Float64, Int16, Int32, Int64, Int8, Type, Uint16, Uint32, Uint64, Uint8 } from "apache-arrow";
import type { DataType } from "apache-arrow";
import type { NumericArray } from "@lance-nd/casting";

/** The numeric types of netCDF by their numpy (and xarray `encoding["dtype"]`) names. */
export type Dtype =
  | "int8"
  | "int16"
  | "int32"
  | "int64"
  | "uint8"
  | "uint16"
  | "uint32"
  | "uint64"
  | "float32"
  | "float64";

interface DtypeInfo {
  make: () => DataType;
  array: new (length: number) => NumericArray;
  /** netCDF's default fill value. */
  defaultFill: number | bigint;
  min: number | bigint;
  max: number | bigint;
}

const FLOAT_FILL = 9.969209968386869e36;

const DTYPES: Record<Dtype, DtypeInfo> = {
  int8: { make: () => new Int8(), array: Int8Array, defaultFill: -127, min: -128, max: 127 },
  int16: { make: () => new Int16(), array: Int16Array, defaultFill: -32767, min: -32768, max: 32767 },
  int32: { make: () => new Int32(), array: Int32Array, defaultFill: -2147483647, min: -2147483648, max: 2147483647 },
  int64: {
    make: () => new Int64(),
    array: BigInt64Array,
    defaultFill: -9223372036854775806n,
    min: -(2n ** 63n),
    max: 2n ** 63n - 1n,
  },
  uint8: { make: () => new Uint8(), array: Uint8Array, defaultFill: 255, min: 0, max: 255 },
  uint16: { make: () => new Uint16(), array: Uint16Array, defaultFill: 65535, min: 0, max: 65535 },
  uint32: { make: () => new Uint32(), array: Uint32Array, defaultFill: 4294967295, min: 0, max: 4294967295 },
  uint64: {
    make: () => new Uint64(),
    array: BigUint64Array,
    defaultFill: 18446744073709551614n,
    min: 0n,
    max: 2n ** 64n - 1n,
  },
  float32: {
    make: () => new Float32(),
    array: Float32Array,
    defaultFill: Math.fround(FLOAT_FILL),
    min: -Infinity,
    max: Infinity,
  },
  float64: { make: () => new Float64(), array: Float64Array, defaultFill: FLOAT_FILL, min: -Infinity, max: Infinity },
};

/** The numpy name of a numeric Arrow type, or `undefined` for any other type (Float16 included). */
export function dtypeOf(type: DataType): Dtype | undefined {
  if (type.typeId === Type.Int) {
    const { bitWidth, isSigned } = type as unknown as { bitWidth: number; isSigned: boolean };
    return `${isSigned ? "int" : "uint"}${bitWidth}` as Dtype;
  }
  if (type.typeId === Type.Float) {
    const precision = (type as unknown as { precision: number }).precision;
    return precision === 1 ? "float32" : precision === 2 ? "float64" : undefined;
  }
  return undefined;
}

/** Every {@link Dtype}: signed integers, unsigned integers, then floats, narrowest first. */
export const DTYPE_NAMES: readonly Dtype[] = Object.keys(DTYPES) as Dtype[];

/** True when `name` is a {@link Dtype}. */
export function isDtype(name: unknown): name is Dtype {
  return typeof name === "string" && Object.hasOwn(DTYPES, name);
}

/**
 * The Arrow type of a dtype: the one table of numpy names to Arrow types,
 * which @lance-nd/zarr and the CLI use too.
 *
 * @example arrowType("float32") // Float32
 */
export function arrowType(dtype: Dtype): DataType {
  return DTYPES[dtype].make();
}

/** A new zeroed typed array of `length` values of `dtype`. */
export function newValues(dtype: Dtype, length: number): NumericArray {
  return new DTYPES[dtype].array(length);
}

/**
 * netCDF's default fill value of a type (`NC_FILL_BYTE` = -127,
 * `NC_FILL_SHORT` = -32767, `NC_FILL_FLOAT` = 9.96921e36, ...). netCDF4-python
 * masks it in variables without `_FillValue`, bytes included.
 */
export function defaultFillValue(dtype: Dtype): number | bigint {
  return DTYPES[dtype].defaultFill;
}

/** True for the 64-bit integer types (their values are bigints). */
export function isBigIntDtype(dtype: Dtype): boolean {
  return dtype === "int64" || dtype === "uint64";
}

/** True for float32 and float64. */
export function isFloatDtype(dtype: Dtype): boolean {
  return dtype === "float32" || dtype === "float64";
}

/**
 * `value` as a value of `dtype`, or `undefined` when it is not exactly one (a
 * fraction or out of range for an integer type, a float64 that float32 cannot
 * hold), as netCDF4-python's safe-cast check of `_FillValue`,
 * `missing_value`, `valid_min`, `valid_max` and `valid_range` does: an
 * attribute that fails it is not used.
 */
export function castFill(value: number | bigint, dtype: Dtype): number | bigint | undefined {
  const { min, max } = DTYPES[dtype];
  if (isFloatDtype(dtype)) {
    const n = Number(value);
    if (typeof value === "bigint" && BigInt(n) !== value) return undefined;
    const cast = dtype === "float32" ? Math.fround(n) : n;
    return cast === n || Number.isNaN(n) ? cast : undefined;
  }
  if (typeof value === "number" && !Number.isInteger(value)) return undefined;
  const big = BigInt(value);
  if (big < BigInt(min) || big > BigInt(max)) return undefined;
  return isBigIntDtype(dtype) ? big : Number(big);
}

/** The range of an integer dtype as numbers (bigints lose precision here; used for range checks of floats). */
export function dtypeRange(dtype: Dtype): [number, number] {
  return [Number(DTYPES[dtype].min), Number(DTYPES[dtype].max)];
}
