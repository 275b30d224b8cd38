// Test helpers: Arrow vectors over typed arrays, with an optional validity.
import { Vector, makeData, makeVector } from "apache-arrow";
import type { DataType } from "apache-arrow";

/** A validity bitmap with bit i set when `valid[i]`. */
function bitmapOf(valid: readonly boolean[]): Uint8Array {
  const bitmap = new Uint8Array((valid.length + 7) >> 3);
  valid.forEach((v, i) => {
    if (v) bitmap[i >> 3]! |= 1 << (i & 7);
  });
  return bitmap;
}

/** A fixed-width vector of `type` over `values`; `valid[i] === false` makes row i null. */
export function fixedVector(type: DataType, values: ArrayLike<unknown>, valid?: readonly boolean[]): Vector {
  const nullCount = valid === undefined ? 0 : valid.filter((v) => !v).length;
  return makeVector(
    makeData({ type, length: values.length, data: values, nullCount, nullBitmap: valid && bitmapOf(valid) } as never),
  ) as Vector;
}

/** `vector` split into `pieces` Data chunks of nearly equal length (one Vector, several Data). */
export function chunked(vector: Vector, pieces: number): Vector {
  const size = Math.max(1, Math.ceil(vector.length / pieces));
  const chunks = [];
  for (let start = 0; start < vector.length; start += size) chunks.push(...vector.slice(start, start + size).data);
  return new Vector(chunks.length === 0 ? vector.data : chunks);
}

/** Byte order of two strings by their UTF-8 encoding (the reference for string stats). */
export function compareUtf8(a: string, b: string): number {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/**
 * The naive reference: the first and last extremes of the values that count,
 * scanning left to right (so of equal values the first one wins).
 */
export function naiveStats<T>(
  values: ReadonlyArray<T | null>,
  less: (a: T, b: T) => boolean,
  counts: (v: T) => boolean = () => true,
): { min: T | null; max: T | null } {
  let min: T | null = null;
  let max: T | null = null;
  for (const v of values) {
    if (v === null || !counts(v)) continue;
    if (min === null || less(v, min)) min = v;
    if (max === null || less(max, v)) max = v;
  }
  return { min, max };
}
