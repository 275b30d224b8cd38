import { util, type Data } from "apache-arrow";
import type { NumberArray } from "@lance-nd/casting";
import type { Storage } from "./stats-type.js";

/**
 * The smallest and the largest counted value in storage form: the stored
 * number or bigint, the Uint16 bits of a Float16, the UTF-8 bytes of a string
 * (a view of the Arrow data buffer, not a copy).
 */
export interface Extremes {
  readonly min: StorageValue;
  readonly max: StorageValue;
}

/** One value in storage form, see {@link Extremes}. */
export type StorageValue = number | bigint | Uint8Array;

/**
 * The extremes of the values in `chunks` (the Data of one Arrow vector), or
 * null when no value counts. Null and NaN values do not count. Of two equal
 * values (0 and -0) the first one wins, as in numpy's `nanmin`/`nanmax`.
 * Strings order by their UTF-8 bytes.
 */
export function extremes(storage: Storage, chunks: readonly Data[]): Extremes | null {
  switch (storage.kind) {
    case "number":
      return numberExtremes(storage.ArrayType === Float64Array, chunks);
    case "bigint":
      return bigintExtremes(chunks);
    case "float16":
      return float16Extremes(chunks);
    case "utf8":
      return utf8Extremes(chunks);
  }
}

/** The validity bitmap of `data` when it has nulls, else null (fast path). */
function nullsOf(data: Data): Uint8Array | null {
  return data.nullCount > 0 ? (data.nullBitmap ?? null) : null;
}

function isValid(bitmap: Uint8Array, index: number): boolean {
  return ((bitmap[index >> 3]! >> (index & 7)) & 1) === 1;
}

/** How many values one `scanDoubles` call folds in. */
const BLOCK = 4096;

// The number kernel works in blocks of BLOCK values:
// - One loop, `scanDoubles`, sees only Float64Array. V8 keeps type feedback
//   per function: a loop that loads from several typed-array kinds is slower
//   (about 1.3x with two kinds, 2x beyond four). So every other chunk
//   (Float32, Int8 to Uint32, Date32, Time32) is converted into a Float64Array
//   block first, a native copy that is exact (each value is a double).
// - Many short calls let V8 optimise `scanDoubles` as a whole function, with
//   feedback for the code after the loop. One long call gets it compiled
//   on-stack mid-loop, before that code ever ran, and it deoptimises there
//   again on every call (measured: about 4x slower).
function numberExtremes(isFloat64: boolean, chunks: readonly Data[]): Extremes | null {
  const range = new Float64Array([Infinity, -Infinity]);
  let block: Float64Array | null = null;
  for (const data of chunks) {
    const values = data.values as NumberArray;
    const { length, offset } = data;
    const bitmap = nullsOf(data);
    const direct = isFloat64 ? (values as Float64Array) : null;
    for (let start = 0; start < length; start += BLOCK) {
      const end = Math.min(start + BLOCK, length);
      if (direct !== null) {
        scanDoubles(direct, start, end, bitmap, offset, range);
      } else {
        block ??= new Float64Array(BLOCK);
        block.set(values.subarray(start, end));
        scanDoubles(block, 0, end - start, bitmap, offset + start, range);
      }
    }
  }
  const [min, max] = range as unknown as [number, number];
  return min <= max ? { min, max } : null;
}

/**
 * Folds `values[start, end)` into `range` (`[min, max]`, starting at
 * `[+Infinity, -Infinity]`). Value i counts when bit `bitOffset + i` of
 * `bitmap` is set, or always without a bitmap. NaN fails both comparisons, so
 * it never counts, and min <= max exactly when some value counted.
 */
function scanDoubles(
  values: Float64Array,
  start: number,
  end: number,
  bitmap: Uint8Array | null,
  bitOffset: number,
  range: Float64Array,
): void {
  let min = range[0]!;
  let max = range[1]!;
  if (bitmap === null) {
    for (let i = start; i < end; i++) {
      const v = values[i]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  } else {
    for (let i = start; i < end; i++) {
      if (!isValid(bitmap, bitOffset + i)) continue;
      const v = values[i]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  range[0] = min;
  range[1] = max;
}

function bigintExtremes(chunks: readonly Data[]): Extremes | null {
  let found = false;
  let min = 0n;
  let max = 0n;
  for (const data of chunks) {
    const values = data.values as BigInt64Array | BigUint64Array;
    const { length, offset } = data;
    const bitmap = nullsOf(data);
    for (let i = 0; i < length; i++) {
      if (bitmap !== null && !isValid(bitmap, offset + i)) continue;
      const v = values[i]!;
      if (!found) {
        min = max = v;
        found = true;
      } else if (v < min) min = v;
      else if (v > max) max = v;
    }
  }
  return found ? { min, max } : null;
}

const POSITIVE_INFINITY_BITS = 0x7c00;
const NEGATIVE_INFINITY_BITS = 0xfc00;

function float16Extremes(chunks: readonly Data[]): Extremes | null {
  let min = Infinity;
  let max = -Infinity;
  let minBits = POSITIVE_INFINITY_BITS;
  let maxBits = NEGATIVE_INFINITY_BITS;
  for (const data of chunks) {
    const values = data.values as Uint16Array;
    const { length, offset } = data;
    const bitmap = nullsOf(data);
    for (let i = 0; i < length; i++) {
      if (bitmap !== null && !isValid(bitmap, offset + i)) continue;
      const bits = values[i]!;
      const v = util.uint16ToFloat64(bits);
      if (v < min) {
        min = v;
        minBits = bits;
      }
      if (v > max) {
        max = v;
        maxBits = bits;
      }
    }
  }
  return min <= max ? { min: minBits, max: maxBits } : null;
}

// Strings stay bytes: each is a range of the chunk's data buffer, compared
// byte by byte in place. Only the final min and max become views.
function utf8Extremes(chunks: readonly Data[]): Extremes | null {
  let minBytes: Uint8Array | null = null;
  let minStart = 0;
  let minEnd = 0;
  let maxBytes: Uint8Array | null = null;
  let maxStart = 0;
  let maxEnd = 0;
  for (const data of chunks) {
    const bytes = data.values as Uint8Array;
    const offsets = data.valueOffsets as Int32Array | BigInt64Array;
    const { length, offset } = data;
    const bitmap = nullsOf(data);
    for (let i = 0; i < length; i++) {
      if (bitmap !== null && !isValid(bitmap, offset + i)) continue;
      const start = Number(offsets[i]!);
      const end = Number(offsets[i + 1]!);
      if (minBytes === null || maxBytes === null) {
        minBytes = maxBytes = bytes;
        minStart = maxStart = start;
        minEnd = maxEnd = end;
      } else if (compareBytes(bytes, start, end, minBytes, minStart, minEnd) < 0) {
        minBytes = bytes;
        minStart = start;
        minEnd = end;
      } else if (compareBytes(bytes, start, end, maxBytes, maxStart, maxEnd) > 0) {
        maxBytes = bytes;
        maxStart = start;
        maxEnd = end;
      }
    }
  }
  if (minBytes === null || maxBytes === null) return null;
  return { min: minBytes.subarray(minStart, minEnd), max: maxBytes.subarray(maxStart, maxEnd) };
}

/** Negative, zero or positive as `a[aStart, aEnd)` orders before, with or after `b[bStart, bEnd)`. */
function compareBytes(
  a: Uint8Array,
  aStart: number,
  aEnd: number,
  b: Uint8Array,
  bStart: number,
  bEnd: number,
): number {
  const aLength = aEnd - aStart;
  const bLength = bEnd - bStart;
  const common = Math.min(aLength, bLength);
  for (let i = 0; i < common; i++) {
    const diff = a[aStart + i]! - b[bStart + i]!;
    if (diff !== 0) return diff;
  }
  return aLength - bLength;
}
