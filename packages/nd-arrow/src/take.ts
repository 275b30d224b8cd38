/**
 * The gather kernel: `take` copies the values at given positions into a new
 * single-chunk vector, on the raw buffers (values, offsets, validity
 * bitmaps) of every value type of FORMAT.md "Types", keeping nulls.
 * Ascending runs of positions are copied as blocks, which is what chunking
 * along outer dims produces.
 */
import { makeVector } from "apache-arrow";
import type { Data, DataType, Vector } from "apache-arrow";
import type { TypedArray } from "./data-type.js";
import { NdArrowError } from "./errors.js";
import { bitmapBytes, copyBits, getBit, popcount8 } from "./bits.js";
import { concatData } from "./concat.js";
import {
  build,
  checkByteLength,
  isWide,
  kindOf,
  newOffsets,
  offsetAt,
  offsetView,
  retype,
  setOffset,
  unitView,
  type OffsetView,
} from "./value-buffers.js";

/** Positions to gather, one per output value. */
export type IndexArray = Uint32Array | Int32Array;

/** Ascending runs at least this long are copied with `subarray`/`set`. */
export const BLOCK_RUN = 8;
/** Strings or binaries at least this long are copied with `subarray`/`set`. */
const BLOCK_BYTES = 32;

/**
 * The values of `vector` at `indices`, in that order, as a new single-chunk
 * vector of the same type (nulls stay null). Positions may repeat.
 *
 * Throws `InvalidArgument` for a position outside the vector and
 * `UnsupportedType` for a type outside FORMAT.md "Types".
 *
 * @example
 * take(vectorFromArray([10, 20, 30]), Uint32Array.of(2, 0, 0)); // [30, 10, 10]
 */
export function take<T extends DataType>(vector: Vector<T>, indices: IndexArray): Vector<T> {
  return makeVector(takeData(concatData(vector.data), indices));
}

/** {@link take} on one `Data` (the kernel behind the strided walks). */
export function takeData<T extends DataType>(data: Data<T>, indices: IndexArray): Data<T> {
  checkIndices(indices, data.length);
  const n = indices.length;
  const { type } = data;
  let nullBitmap: Uint8Array | undefined;
  let nullCount = 0;
  if (data.nullCount > 0) {
    nullBitmap = new Uint8Array(bitmapBytes(n));
    nullCount = n - gatherBits(data.nullBitmap!, data.offset, indices, nullBitmap);
    if (nullCount === 0) nullBitmap = undefined;
  }
  switch (kindOf(type)) {
    case "bits": {
      const bits = new Uint8Array(bitmapBytes(n));
      gatherBits(data.values as Uint8Array, data.offset, indices, bits);
      return build(type, n, nullCount, nullBitmap, { data: bits });
    }
    case "fixed":
      return build(type, n, nullCount, nullBitmap, { data: gatherFixed(data.values, indices) });
    case "varlen": {
      const { offsets, bytes } = gatherVarlen(
        offsetView(data.valueOffsets, isWide(type)),
        data.values as Uint8Array,
        indices,
      );
      return build(type, n, nullCount, nullBitmap, { valueOffsets: offsets, data: bytes });
    }
  }
}

function checkIndices(indices: IndexArray, length: number): void {
  for (let i = 0; i < indices.length; i++) {
    const j = indices[i]!;
    if (j < 0 || j >= length) {
      throw new NdArrowError("InvalidArgument", `index ${j} at position ${i} is out of range for ${length} values`);
    }
  }
}

/** The end of the ascending run (j, j+1, ...) that starts at position `i`. */
function runEnd(indices: IndexArray, i: number): number {
  const n = indices.length;
  const start = indices[i]! - i;
  let k = i + 1;
  while (k < n && indices[k] === start + k) k++;
  return k;
}

/** Gathers bits `srcAt + indices[i]` into bit `i` of the zeroed `dst`; returns how many are set. */
function gatherBits(src: Uint8Array, srcAt: number, indices: IndexArray, dst: Uint8Array): number {
  const n = indices.length;
  for (let i = 0; i < n; ) {
    const end = runEnd(indices, i);
    if (end - i >= BLOCK_RUN) {
      copyBits(src, srcAt + indices[i]!, dst, i, end - i);
    } else {
      for (let k = i; k < end; k++) dst[k >> 3]! |= getBit(src, srcAt + indices[k]!) << (k & 7);
    }
    i = end;
  }
  let set = 0;
  for (let b = 0; b < dst.length; b++) set += popcount8(dst[b]!);
  return set;
}

/**
 * Fixed-width gather: values are copied as 1, 2 or 4-byte unsigned units
 * (8-byte values as two 4-byte units), so float bit patterns (NaN payloads)
 * and 64-bit integers pass through untouched without BigInt boxing.
 */
function gatherFixed(values: TypedArray, indices: IndexArray): TypedArray {
  const width = values.BYTES_PER_ELEMENT;
  const n = indices.length;
  const out = new Uint8Array(n * width);
  const unit = Math.min(width, 4);
  const per = width / unit;
  const src = unitView(values.buffer, values.byteOffset, values.byteLength, unit);
  const dst = unitView(out.buffer, 0, out.byteLength, unit);
  for (let i = 0; i < n; ) {
    const s = indices[i]!;
    let end = i + 1;
    if (end < n && indices[end] === s) {
      while (end < n && indices[end] === s) end++;
      if (end - i >= BLOCK_RUN) {
        fillRun(values, s, out, i, end);
        i = end;
        continue;
      }
    } else {
      end = runEnd(indices, i);
      if (end - i >= BLOCK_RUN) {
        dst.set(src.subarray(s * per, (s + end - i) * per), i * per);
        i = end;
        continue;
      }
    }
    if (per === 1) {
      for (let k = i; k < end; k++) dst[k] = src[indices[k]!]!;
    } else {
      for (let k = i; k < end; k++) {
        const j = indices[k]! * 2;
        dst[2 * k] = src[j]!;
        dst[2 * k + 1] = src[j + 1]!;
      }
    }
    i = end;
  }
  return retype(out, values);
}

/** Fills values `from` to `to` of `out` with value `at` of `values` (8-byte values through one BigInt per run). */
export function fillRun(values: TypedArray, at: number, out: Uint8Array, from: number, to: number): void {
  const width = values.BYTES_PER_ELEMENT;
  if (width === 8) {
    const value = new BigInt64Array(values.buffer, values.byteOffset, values.length)[at]!;
    new BigInt64Array(out.buffer, 0, out.byteLength / 8).fill(value, from, to);
  } else {
    const src = unitView(values.buffer, values.byteOffset, values.byteLength, width);
    unitView(out.buffer, 0, out.byteLength, width).fill(src[at]!, from, to);
  }
}
/** Variable-width gather (Utf8, Binary and their Large variants): offsets first, then bytes. */
function gatherVarlen(
  src: OffsetView,
  values: Uint8Array,
  indices: IndexArray,
): { offsets: Int32Array | BigInt64Array; bytes: Uint8Array } {
  const n = indices.length;
  const { wide } = src;
  const offsets = newOffsets(n + 1, wide);
  const dst = offsetView(offsets, wide);
  let total = 0;
  for (let k = 0; k < n; k++) {
    const j = indices[k]!;
    total += offsetAt(src, j + 1) - offsetAt(src, j);
    setOffset(dst, k + 1, total);
  }
  checkByteLength(total, wide);
  const bytes = new Uint8Array(total);
  let pos = 0;
  for (let i = 0; i < n; ) {
    const end = runEnd(indices, i);
    const s = indices[i]!;
    if (end - i >= BLOCK_RUN) {
      const a = offsetAt(src, s);
      const b = offsetAt(src, s + end - i);
      bytes.set(values.subarray(a, b), pos);
      pos += b - a;
    } else {
      for (let k = i; k < end; k++) {
        const j = indices[k]!;
        const a = offsetAt(src, j);
        const b = offsetAt(src, j + 1);
        if (b - a >= BLOCK_BYTES) bytes.set(values.subarray(a, b), pos);
        else for (let x = a; x < b; x++) bytes[pos + x - a] = values[x]!;
        pos += b - a;
      }
    }
    i = end;
  }
  return { offsets, bytes };
}
