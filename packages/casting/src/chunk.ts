/**
 * Buffers of one chunk (Arrow Data): its values, validity, and the Data a cast
 * makes from new values.
 */

import { makeData } from "apache-arrow";
import type { Data, DataType, Int } from "apache-arrow";
import type { NumericArray } from "./typed-arrays.js";

/** Exactly the `length` values of a fixed-width chunk (builders pad the buffer beyond it). */
export function fixedWidthValues<T extends NumericArray>(data: Data): T {
  return (data.values as T).subarray(0, data.length) as T;
}

/** True when value `i` of `data` is not null. */
export function isValid(data: Data, i: number): boolean {
  const bitmap = data.nullBitmap;
  if (bitmap === undefined || bitmap.length === 0 || data.nullCount === 0) return true;
  const bit = data.offset + i;
  return ((bitmap[bit >> 3]! >> (bit & 7)) & 1) === 1;
}

/** A copy of the validity bitmap of `data` that starts at bit 0, or undefined when nothing is null. */
export function copyValidity(data: Data): Uint8Array | undefined {
  const bitmap = data.nullBitmap;
  if (bitmap === undefined || bitmap.length === 0 || data.nullCount === 0) return undefined;
  const { offset, length } = data;
  const bytes = (length + 7) >> 3;
  const shift = offset & 7;
  const first = offset >> 3;
  if (shift === 0) return bitmap.slice(first, first + bytes);
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) {
    out[i] = ((bitmap[first + i] ?? 0) >> shift) | (((bitmap[first + i + 1] ?? 0) << (8 - shift)) & 0xff);
  }
  return out;
}

/** Fixed-width Data of type `to` holding `values`, with the length and validity of `source`. */
export function fixedWidthData(source: Data, to: DataType, values: ArrayBufferView): Data {
  const nullBitmap = copyValidity(source);
  return makeData({
    type: to as Int,
    length: source.length,
    nullCount: nullBitmap === undefined ? 0 : source.nullCount,
    ...(nullBitmap === undefined ? {} : { nullBitmap }),
    data: values as Int["TArray"],
  });
}
