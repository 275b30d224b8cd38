/**
 * The valid range of a variable (`valid_range`, `valid_min`, `valid_max`) in
 * its stored type, by netCDF4-python's rules: `valid_range` of two values
 * wins over `valid_min` / `valid_max`; each bound is compared with the
 * stored (packed) values; an attribute that is not numbers, or does not cast
 * exactly to the stored type, is not used (netCDF4-python warns and ignores
 * it). `_Unsigned` is not applied (README, "What is decoded").
 */
import type { NdArray } from "@lance-nd/nd-arrow";
import { castFill } from "./dtype.js";
import type { Dtype } from "./dtype.js";

/** The bounds values must lie within (inclusive); a missing bound does not limit. */
export interface ValidRange {
  readonly min: number | bigint | undefined;
  readonly max: number | bigint | undefined;
}

/** The numbers of an attribute, or `undefined` when it is absent or holds anything else. */
function numbersOf(array: NdArray, key: string): (number | bigint)[] | undefined {
  const found = array.attrs.get(key);
  if (found === undefined) return undefined;
  const items = Array.from(found.value as Iterable<unknown>);
  return items.every((v) => typeof v === "number" || typeof v === "bigint")
    ? (items as (number | bigint)[])
    : undefined;
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
export function validRange(array: NdArray, dtype: Dtype): ValidRange | undefined {
  const range = numbersOf(array, "valid_range");
  if (range?.length === 2) {
    const [min, max] = range.map((v) => castFill(v, dtype));
    if (min !== undefined && max !== undefined) return { min, max };
  }
  const min = bound(array, "valid_min", dtype);
  const max = bound(array, "valid_max", dtype);
  return min === undefined && max === undefined ? undefined : { min, max };
}

/** True when `value` lies outside `range` (NaN never does: it compares false, as in numpy). */
export function outsideRange(value: number | bigint, range: ValidRange): boolean {
  return (range.min !== undefined && value < range.min) || (range.max !== undefined && value > range.max);
}
