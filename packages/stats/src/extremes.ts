import type { Data } from "apache-arrow";
import { float16ToNumber } from "./float16.js";
import type { NumberArray, Storage } from "./stats-type.js";

/**
 * The smallest and the largest counted value in storage form: the stored
 * number or bigint, the Uint16 bits of a Float16, the UTF-8 bytes of a string
 * (a view of the Arrow data buffer, not a copy).
 */
export interface Extremes {
  readonly min: number | bigint | Uint8Array;
  readonly max: number | bigint | Uint8Array;
}

/**
 * The extremes of the values in `chunks` (the Data of one Arrow vector), or
 * null when no value counts. Null and NaN values do not count. Of two equal
 * values (0 and -0) the first one wins, as in numpy's `nanmin`/`nanmax`.
 * Strings order by their UTF-8 bytes.
 */
export function extremes(storage: Storage, chunks: readonly Data[]): Extremes | null {
  switch (storage.kind) {
    case "number": return numberExtremes(chunks);
    case "bigint": return bigintExtremes(chunks);
    case "float16": return float16Extremes(chunks);
    case "utf8": return utf8Extremes(chunks);
  }
}

/** The validity bitmap of `data` when it has nulls, else null (fast path). */
function nullsOf(data: Data): Uint8Array | null {
  return data.nullCount > 0 ? data.nullBitmap ?? null : null;
}

function isValid(bitmap: Uint8Array, index: number): boolean {
  return ((bitmap[index >> 3]! >> (index & 7)) & 1) === 1;
}

/** The running min and max of a number scan. */
interface Range {
  min: number;
  max: number;
}

/** How many integers convert to a Float64Array at a time. */
const BLOCK = 4096;

// One loop, `scanFloats`, sees only Float32Array and Float64Array: V8 keeps
// type feedback per function, and with more than four typed-array kinds the
// element load in the loop turns megamorphic and about 2x slower. So integer
// chunks (Int8 to Uint32, Date32, Time32) are converted block by block into a
// Float64Array first (exact: every 32-bit integer is a double).
function numberExtremes(chunks: readonly Data[]): Extremes | null {
  const range: Range = { min: Infinity, max: -Infinity };
  let block: Float64Array | null = null;
  for (const data of chunks) {
    const values = data.values as NumberArray;
    const { length, offset } = data;
    const bitmap = nullsOf(data);
    if (values instanceof Float32Array || values instanceof Float64Array) {
      scanFloats(values, length, bitmap, offset, range);
      continue;
    }
    block ??= new Float64Array(BLOCK);
    for (let start = 0; start < length; start += BLOCK) {
      const count = Math.min(BLOCK, length - start);
      block.set(values.subarray(start, start + count));
      scanFloats(block, count, bitmap, offset + start, range);
    }
  }
  return range.min <= range.max ? { min: range.min, max: range.max } : null;
}

// min starts at +Infinity and max at -Infinity: NaN fails both comparisons,
// so it never counts, and min <= max exactly when some value counted.
/** Folds `values[0, length)` into `range`; `bitmap` bits from `bitOffset` say which count. */
function scanFloats(values: Float32Array | Float64Array, length: number, bitmap: Uint8Array | null, bitOffset: number, range: Range): void {
  let { min, max } = range;
  if (bitmap === null) {
    for (let i = 0; i < length; i++) {
      const v = values[i]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  } else {
    for (let i = 0; i < length; i++) {
      if (!isValid(bitmap, bitOffset + i)) continue;
      const v = values[i]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  range.min = min;
  range.max = max;
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
      const v = float16ToNumber(bits);
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
function compareBytes(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number): number {
  const aLength = aEnd - aStart;
  const bLength = bEnd - bStart;
  const common = Math.min(aLength, bLength);
  for (let i = 0; i < common; i++) {
    const diff = a[aStart + i]! - b[bStart + i]!;
    if (diff !== 0) return diff;
  }
  return aLength - bLength;
}
