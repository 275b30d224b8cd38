import { makeData } from "apache-arrow";
import type { Data, DataType, LargeUtf8 } from "apache-arrow";
import type { Fail } from "./casting-error.js";
import { copyValidity } from "./chunk.js";
import type { VariableWidthType } from "./variable-width.js";
import { TWO_POW_32, words } from "./wide.js";

const MAX_INT32 = 2_147_483_647;

/**
 * Casts one chunk between Utf8 and LargeUtf8 (or Binary and LargeBinary):
 * new offsets starting at 0, the same bytes (shared, not copied). Into 32-bit
 * offsets, the first value whose end lies beyond 2^31 - 1 bytes fails; the
 * error's value is that end offset.
 */
export function castVariableWidthData(
  data: Data,
  from: VariableWidthType,
  to: VariableWidthType,
  toType: DataType,
  fail: Fail,
): Data {
  const length = data.length;
  const offsets32 = from.large ? undefined : (data.valueOffsets as Int32Array);
  const offsetWords = from.large ? words(data.valueOffsets as unknown as BigInt64Array) : undefined;
  // Offsets are below 2^53, so the words make an exact number.
  const offsetAt = (j: number): number =>
    offsets32 !== undefined ? offsets32[j]! : offsetWords![2 * j]! + offsetWords![2 * j + 1]! * TWO_POW_32;
  const base = length === 0 ? 0 : offsetAt(0);
  const end = length === 0 ? 0 : offsetAt(length);
  let valueOffsets: Int32Array | BigInt64Array;
  if (to.large) {
    const out = new BigInt64Array(length + 1);
    const outWords = words(out);
    for (let j = 0; length > 0 && j <= length; j++) {
      const relative = offsetAt(j) - base;
      outWords[2 * j] = relative % TWO_POW_32;
      outWords[2 * j + 1] = Math.floor(relative / TWO_POW_32);
    }
    valueOffsets = out;
  } else {
    const out = new Int32Array(length + 1);
    for (let j = 0; length > 0 && j <= length; j++) {
      const relative = offsetAt(j) - base;
      if (relative > MAX_INT32) fail(j - 1, relative);
      out[j] = relative;
    }
    valueOffsets = out;
  }
  const nullBitmap = copyValidity(data);
  return makeData({
    type: toType as LargeUtf8,
    length,
    nullCount: nullBitmap === undefined ? 0 : data.nullCount,
    ...(nullBitmap === undefined ? {} : { nullBitmap }),
    valueOffsets,
    data: (data.values as Uint8Array).subarray(base, end),
  });
}
