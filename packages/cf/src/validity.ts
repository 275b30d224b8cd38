/**
 * The values and validity of a numeric Arrow vector as flat typed arrays, and
 * the way back: the hot loops of this package run over these, never
 * `vector.get(i)`.
 */
import { Vector, makeData } from "apache-arrow";
import type { DataType } from "apache-arrow";
import type { NumericArray } from "@lance-nd/casting";

/** The values of a numeric vector, contiguous (no copy for one chunk). Null slots hold whatever was stored. */
export function valuesOf(vector: Vector): NumericArray {
  if (vector.data.length === 1) return vector.data[0]!.values as NumericArray;
  return vector.toArray() as NumericArray;
}

/**
 * A validity bitmap of the vector, one bit per value starting at bit 0 (1 =
 * valid), or `null` when every value is valid.
 */
export function validityOf(vector: Vector): Uint8Array | null {
  if (vector.nullCount === 0) return null;
  const bits = new Uint8Array((vector.length + 7) >> 3);
  let at = 0;
  for (const data of vector.data) {
    const source = data.nullBitmap;
    if (source === undefined || source.length === 0 || data.nullCount === 0) {
      for (let i = 0; i < data.length; i++) bits[(at + i) >> 3]! |= 1 << ((at + i) & 7);
    } else {
      for (let i = 0; i < data.length; i++) {
        const from = data.offset + i;
        if ((source[from >> 3]! >> (from & 7)) & 1) bits[(at + i) >> 3]! |= 1 << ((at + i) & 7);
      }
    }
    at += data.length;
  }
  return bits;
}

/** True when bit `i` of `bits` is set (a `null` bitmap means all valid). */
export function isValid(bits: Uint8Array | null, i: number): boolean {
  return bits === null || ((bits[i >> 3]! >> (i & 7)) & 1) === 1;
}

/** Clears bit `i` (marks value `i` null). */
export function clearBit(bits: Uint8Array, i: number): void {
  bits[i >> 3]! &= ~(1 << (i & 7));
}

/** A bitmap with the first `length` bits set. */
export function allValid(length: number): Uint8Array {
  const bits = new Uint8Array((length + 7) >> 3).fill(0xff);
  return bits;
}

/** Counts the cleared bits among the first `length`. */
function countNulls(bits: Uint8Array, length: number): number {
  let nulls = 0;
  for (let i = 0; i < length; i++) if (((bits[i >> 3]! >> (i & 7)) & 1) === 0) nulls++;
  return nulls;
}

/** A one-chunk vector of `type` over `values` with the validity `bits` (`null`: all valid). */
export function vectorOf(type: DataType, values: NumericArray, bits: Uint8Array | null): Vector {
  const nullCount = bits === null ? 0 : countNulls(bits, values.length);
  const data = makeData({
    type: type as never,
    length: values.length,
    data: values as never,
    nullCount,
    ...(nullCount === 0 ? {} : { nullBitmap: bits! }),
  });
  return new Vector([data]);
}
