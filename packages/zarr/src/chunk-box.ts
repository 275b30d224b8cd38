/**
 * Boxes of cells in row-major arrays, for placing a row's block into the
 * Zarr chunks it covers (README "Writing"): copy a box from one array to
 * another, compare two boxes, intersect boxes.
 */
import type { ChunkValues, Plain } from "./chunk-bytes.js";

/** An axis-aligned box of cells: its start and size along each dim. */
export interface Box {
  readonly start: readonly number[];
  readonly size: readonly number[];
}

/**
 * Copies the cells of a box of `size` from `src` (row-major `srcShape`,
 * the box at `from`) to `dst` (row-major `dstShape`, at `to`), run by run
 * along the last dim.
 */
export function copyBox(
  src: ChunkValues,
  srcShape: readonly number[],
  from: readonly number[],
  dst: ChunkValues,
  dstShape: readonly number[],
  to: readonly number[],
  size: readonly number[],
): void {
  runs(srcShape, from, dstShape, to, size, (a, b, length) => {
    if (Array.isArray(src)) for (let i = 0; i < length; i++) (dst as string[])[b + i] = src[a + i]!;
    else (dst as Plain).set(src.subarray(a, a + length), b);
  });
}

/** True when the box of `size` at `from` in `a` holds the same values as the one at `to` in `b` (NaN equals NaN). */
export function sameBox(
  a: ChunkValues,
  aShape: readonly number[],
  from: readonly number[],
  b: ChunkValues,
  bShape: readonly number[],
  to: readonly number[],
  size: readonly number[],
): boolean {
  let same = true;
  runs(aShape, from, bShape, to, size, (i, j, length) => {
    for (let k = 0; same && k < length; k++) same = Object.is(a[i + k], b[j + k]);
  });
  return same;
}

/** The cells two boxes share, `undefined` when none. */
export function intersect(a: Box, b: Box): Box | undefined {
  const start = a.start.map((s, d) => Math.max(s, b.start[d]!));
  const size = start.map((s, d) => Math.min(a.start[d]! + a.size[d]!, b.start[d]! + b.size[d]!) - s);
  return size.every((n) => n > 0) || size.length === 0 ? { start, size } : undefined;
}

/** True when `inner` lies inside `outer`. */
export function contains(outer: Box, inner: Box): boolean {
  return inner.start.every((s, d) => s >= outer.start[d]! && s + inner.size[d]! <= outer.start[d]! + outer.size[d]!);
}

/** Calls `visit(atA, atB, length)` for each run along the last dim of a box of `size` at `fromA` in A and `fromB` in B. */
function runs(
  shapeA: readonly number[],
  fromA: readonly number[],
  shapeB: readonly number[],
  fromB: readonly number[],
  size: readonly number[],
  visit: (atA: number, atB: number, length: number) => void,
): void {
  const rank = size.length;
  if (rank === 0) {
    visit(0, 0, 1);
    return;
  }
  if (size.some((n) => n === 0)) return;
  const stridesA = strides(shapeA);
  const stridesB = strides(shapeB);
  const index = new Array<number>(rank - 1).fill(0);
  const run = size[rank - 1]!;
  for (;;) {
    let atA = fromA[rank - 1]!;
    let atB = fromB[rank - 1]!;
    for (let d = 0; d < rank - 1; d++) {
      atA += (fromA[d]! + index[d]!) * stridesA[d]!;
      atB += (fromB[d]! + index[d]!) * stridesB[d]!;
    }
    visit(atA, atB, run);
    let d = rank - 2;
    for (; d >= 0; d--) {
      if (++index[d]! < size[d]!) break;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

function strides(shape: readonly number[]): number[] {
  const out = new Array<number>(shape.length);
  let n = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    out[d] = n;
    n *= shape[d]!;
  }
  return out;
}
