/**
 * CF time arrays to Arrow timestamps (UTC) and back. Integer times decode to
 * the coarsest of s, ms, us, ns that holds the unit and the reference date
 * exactly; float times to ns, rounded to the nearest nanosecond.
 */
import { TimeUnit, Timestamp, Type } from "apache-arrow";
import { attr, type NdArray } from "@lance-nd/nd-arrow";
import { CfError } from "./cf-error.js";
import { arrowType, defaultFillValue, dtypeOf, isBigIntDtype, isFloatDtype, newValues } from "./dtype.js";
import type { Dtype } from "./dtype.js";
import type { CfTimeUnits } from "./time-units.js";
import { allValid, clearBit, isValid, validityOf, valuesOf, vectorOf } from "./validity.js";

const TICKS: readonly [TimeUnit, bigint][] = [
  [TimeUnit.SECOND, 1_000_000_000n],
  [TimeUnit.MILLISECOND, 1_000_000n],
  [TimeUnit.MICROSECOND, 1_000n],
  [TimeUnit.NANOSECOND, 1n],
];

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The Arrow timestamp unit (and its length in ns) that times of `stored` in `units` decode to. */
function timestampTick(stored: Dtype, units: CfTimeUnits): [TimeUnit, bigint] {
  if (isFloatDtype(stored)) return TICKS[3]!;
  return TICKS.find(([, ns]) => units.unitNs % ns === 0n && units.epochNs % ns === 0n)!;
}

/** True for an Arrow timestamp type. */
export function isTimestamp(array: NdArray): boolean {
  return array.type.typeId === Type.Timestamp;
}

/**
 * Numeric CF times to `Timestamp(unit, "UTC")`; NaN becomes null. A time
 * outside the 64-bit range of the unit is `OutOfRange`.
 */
export function decodeTimes(array: NdArray, units: CfTimeUnits, variable?: string): NdArray {
  const stored = dtypeOf(array.type)!;
  const [unit, tickNs] = timestampTick(stored, units);
  const source = valuesOf(array.values);
  const bits = validityOf(array.values);
  let nulls = bits;
  const out = new BigInt64Array(source.length);
  const epoch = units.epochNs / tickNs;
  const outOfRange = (i: number): never => {
    throw new CfError(
      "OutOfRange",
      `time ${String(source[i])} ${units.unit} from the reference date is outside the 64-bit ${TimeUnit[unit].toLowerCase()} timestamp range`,
      {
        variable,
        attribute: "units",
      },
    );
  };
  if (isFloatDtype(stored)) {
    const perUnit = Number(units.unitNs);
    for (let i = 0; i < source.length; i++) {
      if (!isValid(bits, i)) continue;
      const ns = Math.round((source[i] as number) * perUnit);
      if (Number.isNaN(ns)) {
        nulls ??= allValid(source.length);
        clearBit(nulls, i);
        continue;
      }
      if (!Number.isFinite(ns) || Math.abs(ns) > 9.2e18) outOfRange(i);
      const t = BigInt(ns) + epoch;
      if (t < INT64_MIN || t > INT64_MAX) outOfRange(i);
      out[i] = t;
    }
  } else {
    const factor = units.unitNs / tickNs;
    for (let i = 0; i < source.length; i++) {
      if (!isValid(bits, i)) continue;
      const t = BigInt(source[i]!) * factor + epoch;
      if (t < INT64_MIN || t > INT64_MAX) outOfRange(i);
      out[i] = t;
    }
  }
  return array.withValues(vectorOf(new Timestamp(unit, "UTC"), out, nulls));
}

/**
 * Timestamps back to numbers of `stored` in `units`. For an integer
 * `stored` a time between two units rounds to the nearest; a number outside
 * `stored` is `OutOfRange`.
 */
export function encodeTimes(array: NdArray, units: CfTimeUnits, stored: Dtype, variable?: string): NdArray {
  const tickNs = TICKS.find(([u]) => u === (array.type as Timestamp).unit)![1];
  const source = valuesOf(array.values) as BigInt64Array;
  const bits = validityOf(array.values);
  const out = newValues(stored, source.length);
  const epoch = units.epochNs;
  const perUnit = Number(units.unitNs);
  const float = isFloatDtype(stored);
  const big = isBigIntDtype(stored);
  const probe = newValues(stored, 1);
  for (let i = 0; i < source.length; i++) {
    if (!isValid(bits, i)) continue;
    const ns = source[i]! * tickNs - epoch;
    if (big) {
      const half = units.unitNs / 2n;
      out[i] = ((ns >= 0n ? ns + half : ns - half) / units.unitNs) as never;
      continue;
    }
    const whole = ns / units.unitNs;
    const value = Number(whole) + Number(ns - whole * units.unitNs) / perUnit;
    const stored_ = float ? value : Math.round(value);
    probe[0] = stored_ as never;
    if (!float && probe[0] !== stored_) {
      throw new CfError("OutOfRange", `time ${stored_} in "${units.unit}" does not fit ${stored}`, {
        variable,
        attribute: "units",
      });
    }
    out[i] = stored_ as never;
  }
  return array.withValues(vectorOf(arrowType(stored), out, bits));
}

/**
 * Encoded times (`stored` numbers) with nulls, a missing time, and no
 * declared fill: given a `_FillValue` (NaN for floats, netCDF's default fill
 * for integers), as xarray encodes NaT, so that the fill the nulls become is
 * one the file declares (a reader that does not mask netCDF's default fill,
 * xarray, would read it as a date far out of range).
 */
export function declareTimeFill(array: NdArray, stored: Dtype): NdArray {
  if (array.values.nullCount === 0 || array.attrs.has("_FillValue") || array.attrs.has("missing_value")) return array;
  const fill = isFloatDtype(stored) ? Number.NaN : defaultFillValue(stored);
  return array.withAttrs(new Map([...array.attrs, ["_FillValue", attr[stored](fill as never)]]));
}
