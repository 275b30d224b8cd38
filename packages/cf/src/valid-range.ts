/**
 * The valid range of a variable (`valid_range`, `valid_min`, `valid_max`),
 * by netCDF4-python's rules: `valid_range` of two values wins over
 * `valid_min` / `valid_max`; each bound is compared with the stored (packed)
 * values; an attribute that is not numbers, or does not cast exactly to the
 * stored type, is not used (netCDF4-python warns and ignores it). One
 * deviation, netCDF-Java's: float bounds on packed integers (a
 * `scale_factor` or `add_offset`) are in unpacked units, compared with the
 * unpacked values; netCDF4-python compares them with the packed integers and
 * masks most of such a file. `_Unsigned` is not applied (README, "What is
 * decoded").
 */
import type { NdArray } from "@lance-nd/nd-arrow";
import { castFill, dtypeOf, isFloatDtype } from "./dtype.js";
import type { Dtype } from "./dtype.js";
import { numbersOf } from "./numeric-attr.js";
import { packingOf, unpackedDtype } from "./scale.js";

/** The bounds values must lie within (inclusive); a missing bound does not limit. */
export interface ValidRange {
  readonly min: number | bigint | undefined;
  readonly max: number | bigint | undefined;
  /** Set when the bounds are in unpacked units: how to unpack a stored value before comparing. */
  readonly unpack?: (stored: number | bigint) => number;
}

/** The one value of `key` cast exactly to `dtype`, or `undefined` (absent, not one number, not exact). */
function bound(array: NdArray, key: string, dtype: Dtype): number | bigint | undefined {
  const items = numbersOf(array, key);
  return items?.length === 1 ? castFill(items[0]!, dtype) : undefined;
}

/**
 * The valid range of `array` (stored type `dtype`), or `undefined` when its
 * attributes set none that netCDF4-python would use.
 */
export function validRange(array: NdArray, dtype: Dtype, variable?: string): ValidRange | undefined {
  const unpacked = unpackedUnits(array, dtype, variable);
  if (unpacked !== undefined) {
    const range = packedRange(array, unpacked.dtype);
    return range === undefined ? undefined : { ...range, unpack: unpacked.unpack };
  }
  return packedRange(array, dtype);
}

/** The bounds cast exactly to `dtype` (the stored type, or the unpacked one). */
function packedRange(array: NdArray, dtype: Dtype): ValidRange | undefined {
  const range = numbersOf(array, "valid_range");
  if (range?.length === 2) {
    const [min, max] = range.map((v) => castFill(v, dtype));
    if (min !== undefined && max !== undefined) return { min, max };
  }
  const min = bound(array, "valid_min", dtype);
  const max = bound(array, "valid_max", dtype);
  return min === undefined && max === undefined ? undefined : { min, max };
}

/**
 * For packed integers whose range attributes are floats: the unpacked dtype
 * and the unpacking of one value, as `unpack` computes it; else `undefined`.
 */
function unpackedUnits(
  array: NdArray,
  dtype: Dtype,
  variable: string | undefined,
): { dtype: Dtype; unpack: (stored: number | bigint) => number } | undefined {
  if (isFloatDtype(dtype)) return undefined;
  const keys = array.attrs.has("valid_range") ? ["valid_range"] : ["valid_min", "valid_max"];
  const types = keys.flatMap((key) => {
    const found = array.attrs.get(key);
    return found === undefined ? [] : [dtypeOf(found.itemType)];
  });
  if (types.length === 0 || !types.every((t) => t !== undefined && isFloatDtype(t))) return undefined;
  const packing = packingOf(array, variable);
  if (packing === undefined) return undefined;
  const target = unpackedDtype(dtype, packing);
  const scale = packing.scale ?? 1;
  const offset = packing.offset ?? 0;
  if (target === "float64") return { dtype: target, unpack: (v) => Number(v) * scale + offset };
  const s = Math.fround(scale);
  const o = Math.fround(offset);
  return { dtype: target, unpack: (v) => Math.fround(Math.fround(Number(v) * s) + o) };
}

/** True when `value` lies outside `range` (NaN never does: it compares false, as in numpy). */
export function outsideRange(value: number | bigint, range: ValidRange): boolean {
  const v = range.unpack === undefined ? value : range.unpack(value);
  return (range.min !== undefined && v < range.min) || (range.max !== undefined && v > range.max);
}
