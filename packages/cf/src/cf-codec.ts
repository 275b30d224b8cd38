/**
 * `cfDecode` and `cfEncode`: the CF conventions of one netCDF-style variable
 * applied to its values (masking, packing, times) and undone.
 */
import { attr } from "@lance-nd/nd-arrow";
import type { NdArray } from "@lance-nd/nd-arrow";
import { CfError } from "./cf-error.js";
import { dtypeOf, isDtype } from "./dtype.js";
import type { Dtype } from "./dtype.js";
import { fillMissing, maskMissing } from "./mask.js";
import { pack, packingOf, unpack, unpackedDtype } from "./scale.js";
import type { Packing } from "./scale.js";
import { decodesToTimestamps, isCfTimeUnits, parseCfTimeUnits } from "./time-units.js";
import { declareTimeFill, decodeTimes, encodeTimes, isTimestamp } from "./times.js";

/**
 * The attribute `cfDecode` adds when it changes the value type (unpacking or
 * times): the stored numpy dtype (`"int16"`, `"float64"`, ...), which
 * `cfEncode` reads to restore it and then removes.
 */
export const STORED_DTYPE_ATTR = "_lance_nd_dtype";

/**
 * The attribute that marks a variable kept as stored (value `"raw"`) in a
 * table whose other variables are decoded, because decoding it would not
 * come back the same (README, "Round trips"): `cfEncode` leaves such a
 * variable as it is and removes the mark.
 */
export const RAW_VARIABLE_ATTR = "_lance_nd_cf";

/** What {@link cfDecode} and {@link cfEncode} apply. Each defaults to `true`, but `validRange` and `lossless`. */
export interface CfOptions {
  /** Fill values (`_FillValue`, `missing_value`, netCDF's default fill) <-> nulls. */
  mask?: boolean;
  /**
   * With `mask`: a variable without `_FillValue` masks netCDF's default fill
   * of its type, as netCDF4-python does. `false` masks `_FillValue` and
   * `missing_value` only, as xarray does.
   */
  defaultFill?: boolean;
  /**
   * With `mask`: values outside `valid_range` (else `valid_min` /
   * `valid_max`) become nulls too, as netCDF4-python masks them (README,
   * "What is decoded"). Default `false`: the bounds are meaningful where
   * attributes keep their types (netCDF); Zarr's JSON cannot tell packed
   * from unpacked bounds. Nulls encode as the fill value either way.
   */
  validRange?: boolean;
  /**
   * With `mask`: refuse (`LossyMask`) a variable whose masked cells encoding
   * would not restore: a cell equal to a `missing_value` (or netCDF's
   * default fill) other than the fill value nulls are written back as.
   * Default `false`. Values outside the valid range are not checked.
   */
  lossless?: boolean;
  /** `scale_factor` / `add_offset` unpacking <-> packing. */
  scale?: boolean;
  /** CF times (`<unit> since <date>`) <-> `Timestamp(unit, "UTC")`. */
  times?: boolean;
  /** The variable's name, for error messages. */
  name?: string;
}

/**
 * Decodes a variable as netCDF4-python's automatic mask-and-scale and
 * `num2date` do: missing values become nulls (compared in the stored type),
 * packed values unpack to float32 or float64 (xarray's choice, see
 * `unpackedDtype`), times of proleptic Gregorian dates become UTC timestamps
 * (times of other calendars keep their numbers). Attributes stay as they were,
 * plus {@link STORED_DTYPE_ATTR} when the value type changed. Arrays of other
 * types (strings, booleans) and arrays already decoded pass through.
 *
 * Throws a `CfError`: `InvalidAttribute` (a text `_FillValue`, a list
 * `scale_factor`), `InvalidUnits`, `UnsupportedCalendar`, `OutOfRange`.
 *
 * @example
 * const sst = NdArray.from(new Int16Array([100, -32767]), {
 *   dims: { x: 2 },
 *   attrs: { _FillValue: attr.int16(-32767), scale_factor: attr.float32(0.01) },
 * });
 * cfDecode(sst).toArray(); // [1, null] (Float32)
 */
export function cfDecode(array: NdArray, options: CfOptions = {}): NdArray {
  const { mask = true, defaultFill = true, scale = true, times = true, validRange = false, lossless = false } = options;
  const { name } = options;
  const stored = dtypeOf(array.type);
  if (stored === undefined || array.attrs.has(STORED_DTYPE_ATTR)) return array;
  let out = mask ? maskMissing(array, name, { withRange: validRange, lossless, defaultFill }) : array;
  const packing = scale ? packingOf(array, name) : undefined;
  if (packing !== undefined) out = unpack(out, packing);
  const units = array.attr("units");
  if (times && isCfTimeUnits(units)) {
    const calendar = array.attr("calendar");
    const parsed = parseCfTimeUnits(units, typeof calendar === "string" ? calendar : undefined, { variable: name });
    // Other calendars keep their numbers, with units and calendar (README, "What is decoded").
    if (decodesToTimestamps(parsed)) out = decodeTimes(out, parsed, name);
  }
  if (out.type.typeId === array.type.typeId && dtypeOf(out.type) === stored) return out;
  return out.withAttrs(new Map([...out.attrs, [STORED_DTYPE_ATTR, attr.utf8(stored)]]));
}

/**
 * The inverse of {@link cfDecode}: timestamps back to numbers in the
 * variable's `units`, floats packed back with `scale_factor` / `add_offset`,
 * nulls back to the fill value; {@link STORED_DTYPE_ATTR} is removed. The
 * stored type is that attribute, else the type of `_FillValue` for packed
 * values; values of another type than a recorded stored type (an import
 * that cast them) are cast back. An array that `cfDecode` left alone comes back unchanged; one
 * marked {@link RAW_VARIABLE_ATTR} comes back as it is, without the mark.
 *
 * Throws a `CfError`: `InvalidAttribute` (no way to tell the stored type; a
 * null with no fill value to store), `InvalidUnits`, `UnsupportedCalendar`,
 * `OutOfRange` (a value that does not fit the stored type).
 *
 * @example
 * cfEncode(cfDecode(sst)); // the Int16 values [100, -32767] again
 */
export function cfEncode(array: NdArray, options: CfOptions = {}): NdArray {
  const { mask = true, scale = true, times = true, name } = options;
  if (array.attrs.has(RAW_VARIABLE_ATTR))
    return array.withAttrs(new Map([...array.attrs].filter(([key]) => key !== RAW_VARIABLE_ATTR)));
  const stored = storedDtype(array, name);
  let out = array;
  const packing = scale ? packingOf(array, name) : undefined;
  if (times && isTimestamp(array)) {
    const units = array.attr("units");
    if (!isCfTimeUnits(units)) {
      throw new CfError("InvalidUnits", `timestamps need CF time units to encode, found ${JSON.stringify(units)}`, {
        variable: name,
        attribute: "units",
      });
    }
    const calendar = array.attr("calendar");
    const parsed = parseCfTimeUnits(units, typeof calendar === "string" ? calendar : undefined, { variable: name });
    const numbers = packing === undefined ? (stored ?? "float64") : unpackedDtype(stored ?? "float64", packing);
    out = encodeTimes(out, parsed, numbers, name);
  }
  // Without packing, a recorded stored type that differs is a cast to undo (exact: the values came from it).
  if (stored !== undefined && dtypeOf(out.type) !== stored) out = pack(out, packing ?? NO_PACKING, stored, name);
  if (mask && times && isTimestamp(array)) out = declareTimeFill(out, dtypeOf(out.type)!);
  if (mask) out = fillMissing(out, name);
  if (!out.attrs.has(STORED_DTYPE_ATTR)) return out;
  return out.withAttrs(new Map([...out.attrs].filter(([key]) => key !== STORED_DTYPE_ATTR)));
}

/** Packing that leaves values as they are: what casts values back to their stored type. */
const NO_PACKING: Packing = { scale: undefined, offset: undefined, scaleDtype: undefined, offsetDtype: undefined };

/** The stored dtype of a decoded array: its {@link STORED_DTYPE_ATTR}, else `_FillValue`'s type when packed. */
function storedDtype(array: NdArray, name: string | undefined): Dtype | undefined {
  const recorded = array.attrs.get(STORED_DTYPE_ATTR);
  if (recorded !== undefined) {
    const value = recorded.toJS();
    if (!isDtype(value)) {
      throw new CfError(
        "InvalidAttribute",
        `must name a numeric dtype (int8 ... float64), found ${JSON.stringify(value)}`,
        {
          variable: name,
          attribute: STORED_DTYPE_ATTR,
        },
      );
    }
    return value;
  }
  const fill = array.attrs.get("_FillValue");
  if (fill !== undefined && packingOf(array, name) !== undefined) return dtypeOf(fill.itemType);
  return dtypeOf(array.type);
}
