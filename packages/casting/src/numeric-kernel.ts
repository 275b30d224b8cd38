import type { Data, DataType } from "apache-arrow";
import { float16ToNumber, numberToFloat16 } from "./float16.js";
import type { Fail } from "./casting-error.js";
import type { NumericType } from "./numeric.js";
import { fixedWidthData, fixedWidthValues, isValid } from "./chunk.js";
import { wideToBigInt, wideToFloat32, wideToNumber, words } from "./wide.js";
import type { NumberArray, NumericArray } from "./typed-arrays.js";

/**
 * How a numeric type stores values: Bool as bits, Float16 as half bits in a
 * Uint16Array, 64-bit integers as two 32-bit words, the rest as JS numbers.
 */
type Storage = "bits" | "half" | "wide" | "number";

function storage(t: NumericType): Storage {
  if (t.kind === "bool") return "bits";
  if (t.kind === "float") return t.bits === 16 ? "half" : "number";
  return t.bits === 64 ? "wide" : "number";
}

/** The smallest and largest value of a type stored as JS numbers. */
function range(t: NumericType): [number, number] {
  if (t.kind === "float") return [-Infinity, Infinity];
  if (t.kind === "unsigned") return [0, 2 ** t.bits - 1];
  return [-(2 ** (t.bits - 1)), 2 ** (t.bits - 1) - 1];
}

function allocate(t: NumericType, length: number): NumericArray {
  switch (t.kind) {
    case "float":
      return t.bits === 16
        ? new Uint16Array(length)
        : t.bits === 32
          ? new Float32Array(length)
          : new Float64Array(length);
    case "signed":
      return t.bits === 8
        ? new Int8Array(length)
        : t.bits === 16
          ? new Int16Array(length)
          : t.bits === 32
            ? new Int32Array(length)
            : new BigInt64Array(length);
    default:
      return t.bits === 8
        ? new Uint8Array(length)
        : t.bits === 16
          ? new Uint16Array(length)
          : t.bits === 32
            ? new Uint32Array(length)
            : new BigUint64Array(length);
  }
}

/**
 * Casts one chunk of numbers (Bool, integers, floats) from `from` to `to`.
 * The caller has checked that the casting mode allows it; this checks each
 * non-null value against the range of an integer target and calls `fail` for
 * the first that is out of range. Floats narrow with IEEE rounding (overflow
 * gives ±Infinity). The validity bitmap is copied.
 */
export function castNumericData(data: Data, from: NumericType, to: NumericType, toType: DataType, fail: Fail): Data {
  const out = allocate(to, data.length);
  switch (storage(from)) {
    case "bits":
      fromBits(data, to, out);
      break;
    case "number":
      fromNumbers(data, from, to, out, fail);
      break;
    case "half":
      fromHalves(data, out as NumberArray);
      break;
    case "wide":
      fromWide(data, from, to, out, fail);
      break;
  }
  return fixedWidthData(data, toType, out);
}

function fromBits(data: Data, to: NumericType, out: NumericArray): void {
  const bits = data.values as Uint8Array;
  const { offset, length } = data;
  const target = storage(to);
  const words32 = target === "wide" ? words(out as BigInt64Array) : undefined;
  const one = target === "half" ? numberToFloat16(1) : 1;
  const numbers = out as NumberArray;
  for (let i = 0; i < length; i++) {
    const j = offset + i;
    const bit = (bits[j >> 3]! >> (j & 7)) & 1;
    if (words32 !== undefined) words32[2 * i] = bit;
    else numbers[i] = bit * one;
  }
}

function fromNumbers(data: Data, from: NumericType, to: NumericType, out: NumericArray, fail: Fail): void {
  const src = fixedWidthValues<NumberArray>(data);
  const length = data.length;
  const target = storage(to);
  if (target === "half") {
    const halves = out as Uint16Array;
    for (let i = 0; i < length; i++) halves[i] = numberToFloat16(src[i]!);
    return;
  }
  if (target === "wide") {
    // Integers of 32 bits or less; never signed into UInt64 (an earlier kind), so every value fits.
    const words32 = words(out as BigInt64Array);
    for (let i = 0; i < length; i++) {
      const v = src[i]!;
      words32[2 * i] = v >>> 0;
      words32[2 * i + 1] = v < 0 ? 0xffffffff : 0;
    }
    return;
  }
  // TypedArray#set converts in native code; a value out of range (it wraps) is then found in the source.
  (out as NumberArray).set(src);
  const [min, max] = range(to);
  const [fromMin, fromMax] = range(from);
  if (min <= fromMin && fromMax <= max) return;
  for (let i = 0; i < length; i++) {
    const v = src[i]!;
    if ((v < min || v > max) && isValid(data, i)) fail(i, v);
  }
}

/** Float16 casts only to the wider floats (the rules allow nothing else). */
function fromHalves(data: Data, out: NumberArray): void {
  const src = fixedWidthValues<Uint16Array>(data);
  for (let i = 0; i < data.length; i++) out[i] = float16ToNumber(src[i]!);
}

function fromWide(data: Data, from: NumericType, to: NumericType, out: NumericArray, fail: Fail): void {
  const src = words(fixedWidthValues<BigInt64Array>(data));
  const length = data.length;
  const signed = from.kind === "signed";
  const target = storage(to);
  if (target === "wide") {
    // UInt64 -> Int64 (the other way is an earlier kind): the same words; a value >= 2^63 fails.
    const words32 = words(out as BigInt64Array);
    words32.set(src);
    if (from.kind === to.kind) return;
    for (let i = 0; i < length; i++) {
      const hi = src[2 * i + 1]!;
      if (hi >= 0x80000000 && isValid(data, i)) fail(i, wideToBigInt(hi, src[2 * i]!));
    }
    return;
  }
  const numbers = out as NumberArray;
  if (target === "half") {
    for (let i = 0; i < length; i++) {
      const hi = signed ? src[2 * i + 1]! | 0 : src[2 * i + 1]!;
      numbers[i] = numberToFloat16(wideToNumber(hi, src[2 * i]!));
    }
    return;
  }
  if (to.kind === "float") {
    const single = to.bits === 32;
    for (let i = 0; i < length; i++) {
      const hi = signed ? src[2 * i + 1]! | 0 : src[2 * i + 1]!;
      const lo = src[2 * i]!;
      numbers[i] = single ? wideToFloat32(hi, lo) : wideToNumber(hi, lo);
    }
    return;
  }
  // A narrower integer: beyond 2^53 the double is inexact but far out of any 32-bit range anyway.
  const [min, max] = range(to);
  for (let i = 0; i < length; i++) {
    const hi = signed ? src[2 * i + 1]! | 0 : src[2 * i + 1]!;
    const lo = src[2 * i]!;
    const v = wideToNumber(hi, lo);
    if ((v < min || v > max) && isValid(data, i)) fail(i, wideToBigInt(hi, lo));
    numbers[i] = v;
  }
}
