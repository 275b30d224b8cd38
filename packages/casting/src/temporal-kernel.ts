import type { Data, DataType } from "apache-arrow";
import type { Fail } from "./casting-error.js";
import { temporalSteps } from "./temporal.js";
import type { TemporalType } from "./temporal.js";
import { fixedWidthData, fixedWidthValues, isValid } from "./chunk.js";
import { divHi, divLo, fitsInt32, mulHi, mulLo, wideToBigInt, words } from "./wide.js";

/**
 * Casts one chunk of a temporal type to another of the same kind: multiplies
 * to a finer unit (a product beyond 64 bits fails), floor-divides to a coarser
 * one (as numpy), floors a timestamp to the day for a Date, and leaves values
 * alone for a time zone change (Arrow timestamps with a zone are UTC instants).
 * A result that does not fit a 32-bit target fails. Exact 64-bit arithmetic,
 * no BigInt per value.
 */
export function castTemporalData(data: Data, from: TemporalType, to: TemporalType, toType: DataType, fail: Fail): Data {
  const length = data.length;
  const steps = temporalSteps(from, to);
  if (steps.length === 0 && from.wide === to.wide) {
    // Same storage and numbers (a time zone change, Date64 <-> Timestamp[ms]): a copy.
    return fixedWidthData(data, toType, fixedWidthValues<Int32Array | BigInt64Array>(data).slice());
  }
  const out = to.wide ? new BigInt64Array(length) : new Int32Array(length);
  const narrow = from.wide ? undefined : fixedWidthValues<Int32Array>(data);
  const src = from.wide ? words(fixedWidthValues<BigInt64Array>(data)) : undefined;
  const outWords = to.wide ? words(out as BigInt64Array) : undefined;
  const out32 = out as Int32Array;
  for (let i = 0; i < length; i++) {
    let hi: number;
    let lo: number;
    if (narrow !== undefined) {
      const v = narrow[i]!;
      hi = v < 0 ? -1 : 0;
      lo = v >>> 0;
    } else {
      hi = src![2 * i + 1]! | 0;
      lo = src![2 * i]!;
    }
    let fits = true;
    for (const step of steps) {
      if (step > 0) {
        const next = mulHi(hi, lo, step);
        if (Number.isNaN(next)) {
          fits = false;
          break;
        }
        lo = mulLo(lo, step);
        hi = next;
      } else {
        lo = divLo(hi, lo, -step);
        hi = divHi(hi, -step);
      }
    }
    if (outWords !== undefined) {
      outWords[2 * i] = lo;
      outWords[2 * i + 1] = hi;
    } else if (fitsInt32(hi, lo)) {
      out32[i] = lo | 0;
    } else {
      fits = false;
    }
    if (!fits && isValid(data, i))
      fail(i, narrow !== undefined ? narrow[i] : wideToBigInt(src![2 * i + 1]! | 0, src![2 * i]!));
  }
  return fixedWidthData(data, toType, out);
}
