/**
 * Fill values to nulls and back, as netCDF4-python's automatic masking does:
 * values equal to `_FillValue` or to any `missing_value` become nulls (NaN
 * fills mask NaNs); a variable without `_FillValue` also masks netCDF's
 * default fill of its type (unless told not to, as xarray); on request, values outside `valid_range` (else
 * `valid_min` / `valid_max`) become nulls too (see `validRange`). Nulls encode as the fill value, as
 * netCDF4-python writes a masked array (README, "What is decoded").
 */
import type { NdArray } from "@lance-nd/nd-arrow";
import { CfError } from "./cf-error.js";
import { castFill, defaultFillValue, dtypeOf, newValues } from "./dtype.js";
import type { Dtype } from "./dtype.js";
import { numericAttr } from "./numeric-attr.js";
import { outsideRange, validRange } from "./valid-range.js";
import { allValid, clearBit, isValid, validityOf, valuesOf, vectorOf } from "./validity.js";

/** The values an array's attributes mark as missing, in its stored type. */
interface MissingValues {
  /** The values that become nulls. */
  readonly values: readonly (number | bigint)[];
  /** True when NaN is among them (a NaN `_FillValue` or `missing_value`). */
  readonly nan: boolean;
  /** The value a null becomes when encoding: `_FillValue`, else the first `missing_value`, else the default fill. */
  readonly fill: number | bigint | undefined;
}

/**
 * What counts as missing in `array` (stored type `dtype`), from its
 * attributes; without `_FillValue`, netCDF's default fill of the type too
 * unless `defaultFill` is false (xarray does not mask it).
 */
function missingValues(array: NdArray, dtype: Dtype, variable?: string, defaultFill = true): MissingValues {
  const values: (number | bigint)[] = [];
  let nan = false;
  const add = (raw: number | bigint): number | bigint | undefined => {
    const cast = castFill(raw, dtype);
    if (cast === undefined) return undefined;
    if (typeof cast === "number" && Number.isNaN(cast)) nan = true;
    else values.push(cast);
    return cast;
  };
  const fillAttr = numericAttr(array, "_FillValue", variable);
  const missing = numericAttr(array, "missing_value", variable) ?? [];
  let fill: number | bigint | undefined;
  const missingCast = missing.map(add);
  if (fillAttr !== undefined && fillAttr.length > 0) {
    fill = add(fillAttr[0]!);
  } else {
    const byDefault = defaultFillValue(dtype);
    if (defaultFill) values.push(byDefault);
    fill = missingCast.find((v) => v !== undefined) ?? byDefault;
  }
  return { values, nan, fill };
}

/**
 * True when every value `array`'s mask turns into a null is the one value
 * {@link fillMissing} writes back (NaN counting as one value), so masking
 * can never change a cell on a round trip, whatever the cells hold (README,
 * "Round trips"). Decided by the attributes alone: a `missing_value` other
 * than `_FillValue` (scipy's `example_3_maskedvals.nc`) makes it false.
 * Arrays that are not numbers are true.
 */
export function maskRoundTrips(array: NdArray, variable?: string, defaultFill = true): boolean {
  const dtype = dtypeOf(array.type);
  if (dtype === undefined) return true;
  const { values, nan, fill } = missingValues(array, dtype, variable, defaultFill);
  const fillIsNan = typeof fill === "number" && Number.isNaN(fill);
  return values.every((v) => v === fill) && (!nan || fillIsNan);
}

/** What {@link maskMissing} masks besides the missing values, and whether it refuses a lossy mask. */
export interface MaskOptions {
  /** Values outside the valid range (see `validRange`) become nulls too. */
  withRange?: boolean;
  /** Without `_FillValue`, netCDF's default fill of the type becomes null too (default `true`, as netCDF4-python). */
  defaultFill?: boolean;
  /**
   * Refuse (`LossyMask`) an array with a cell equal to a missing value other
   * than the fill value {@link fillMissing} writes back, so that decoding and
   * encoding never change a value (README, "Round trips").
   */
  lossless?: boolean;
}

/**
 * `array` with its missing values (see {@link missingValues}) and, with
 * `withRange`, the values outside its valid range (see `validRange`) as nulls; other types than
 * integers and floats pass through. The values buffer is shared, not copied.
 */
export function maskMissing(array: NdArray, variable?: string, options: MaskOptions = {}): NdArray {
  const { withRange = false, lossless = false, defaultFill = true } = options;
  const dtype = dtypeOf(array.type);
  if (dtype === undefined) return array;
  const { values: fills, nan, fill } = missingValues(array, dtype, variable, defaultFill);
  const range = withRange ? validRange(array, dtype, variable) : undefined;
  if (fills.length === 0 && !nan && range === undefined) return array;
  const values = valuesOf(array.values);
  const old = validityOf(array.values);
  const bits = old ?? allValid(values.length);
  let masked = false;
  const [a, b] = fills;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const hit =
      v === a ||
      v === b ||
      (fills.length > 2 && fills.includes(v)) ||
      (nan && Number.isNaN(v)) ||
      (range !== undefined && outsideRange(v, range));
    if (hit && isValid(bits, i)) {
      if (lossless && isLost(v, fill, fills, nan)) throw lossyMask(v, fill, array, variable);
      clearBit(bits, i);
      masked = true;
    }
  }
  if (!masked) return array;
  return array.withValues(vectorOf(array.type, values, bits));
}

/** True when masked `value` is a missing value other than `fill`, the one value nulls encode as (values outside the valid range are not checked: README, "Round trips"). */
function isLost(
  value: number | bigint,
  fill: number | bigint | undefined,
  fills: readonly (number | bigint)[],
  nan: boolean,
): boolean {
  const missing = fills.includes(value) || (nan && Number.isNaN(value));
  const same = value === fill || (typeof fill === "number" && Number.isNaN(fill) && Number.isNaN(value));
  return missing && !same;
}

/** The `LossyMask` error of a cell holding `value` where nulls encode as `fill`. */
function lossyMask(
  value: number | bigint,
  fill: number | bigint | undefined,
  array: NdArray,
  variable?: string,
): CfError {
  const marker = array.attrs.has("_FillValue")
    ? "_FillValue"
    : array.attrs.has("missing_value")
      ? "missing_value"
      : "default fill";
  return new CfError(
    "LossyMask",
    `holds the missing value ${String(value)}, but nulls are written back as its ${marker} ${String(fill)}: masking would change that value on a round trip`,
    { variable },
  );
}

/**
 * The inverse of {@link maskMissing}: nulls become the fill value
 * (`_FillValue`, else the first `missing_value`, else netCDF's default fill
 * of the type); a null whose slot still holds one of the missing values (an
 * array masked in memory) keeps that value. A value masked for lying outside
 * the valid range is gone: it becomes the fill value, as netCDF4-python
 * writes a masked array. A `_FillValue` that does not fit the type (e.g. 1e9
 * for an int16) is `InvalidAttribute`: nothing says what to store.
 */
export function fillMissing(array: NdArray, variable?: string): NdArray {
  const dtype = dtypeOf(array.type);
  if (dtype === undefined || array.values.nullCount === 0) return array;
  const { fill, values: missing, nan } = missingValues(array, dtype, variable);
  if (fill === undefined) {
    throw new CfError("InvalidAttribute", `has nulls but its fill value does not fit ${dtype}`, {
      variable,
      attribute: "_FillValue",
    });
  }
  const source = valuesOf(array.values);
  const bits = validityOf(array.values);
  const out = newValues(dtype, source.length);
  out.set(source as never);
  for (let i = 0; i < out.length; i++) {
    if (isValid(bits, i)) continue;
    const kept = out[i]!;
    // A null slot that still holds one of the missing values (masked in
    // memory, never stored) keeps it, so a `missing_value` stays itself.
    // eslint-disable-next-line no-self-compare
    if (!missing.includes(kept) && !(nan && Number.isNaN(kept))) out[i] = fill as never;
  }
  return array.withValues(vectorOf(array.type, out, null));
}
