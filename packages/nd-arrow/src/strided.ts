/**
 * Strided walks over a row-major grid: `stridedIndices` lists the positions
 * of a walk, `takeStrided` copies a walk out of a vector and
 * `scatterStrided` places parts into a new vector. Fixed-width values
 * without nulls are copied block by block where the walk is contiguous;
 * anything else goes through the gather kernel (`take.ts`).
 */
import { makeVector } from "apache-arrow";
import type { DataType, Vector } from "apache-arrow";
import type { TypedArray } from "./data-type.js";
import { NdArrowError } from "./errors.js";
import { concatData } from "./concat.js";
import { BLOCK_RUN, fillRun, takeData } from "./take.js";
import { build, bytesOf, kindOf, retype } from "./value-buffers.js";

/**
 * Positions of a strided walk, row-major over `sizes`: entry `(i0, i1, ...)`
 * is `start + i0 * strides[0] + i1 * strides[1] + ...`. A stride of 0
 * repeats (broadcasts) along that dim. Built block by block, no per-cell
 * arithmetic over all dims.
 *
 * @example
 * stridedIndices([2, 3], [1, 0]);       // [0, 0, 0, 1, 1, 1]
 * stridedIndices([2, 2], [4, 1], 5);    // [5, 6, 9, 10]
 */
export function stridedIndices(sizes: readonly number[], strides: readonly number[], start = 0): Uint32Array {
  const total = sizes.reduce((n, s) => n * s, 1);
  const out = new Uint32Array(total);
  if (total === 0) return out;
  out[0] = start;
  let block = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    const size = sizes[d]!;
    const stride = strides[d]!;
    if (stride === 0 && block === 1) out.fill(start, 1, size);
    else {
      for (let j = 1; j < size; j++) {
        const at = j * block;
        const add = j * stride;
        if (add === 0) out.copyWithin(at, 0, block);
        else for (let k = 0; k < block; k++) out[at + k] = out[k]! + add;
      }
    }
    block *= size;
  }
  return out;
}

/**
 * {@link take} of the strided walk {@link stridedIndices}`(sizes, strides,
 * start)`. Fixed-width values without nulls are copied block by block where
 * the walk is contiguous (e.g. a chunk along outer dims), without building
 * the index array; anything else goes through `take`.
 */
export function takeStrided<T extends DataType>(
  vector: Vector<T>,
  sizes: readonly number[],
  strides: readonly number[],
  start = 0,
): Vector<T> {
  const data = concatData(vector.data);
  const total = sizes.reduce((n, s) => n * s, 1);
  const fast = blockPlan(sizes, strides, rowMajorStrides(sizes));
  if (kindOf(data.type) !== "fixed" || data.nullCount > 0 || fast === undefined || total === 0) {
    return makeVector(takeData(data, stridedIndices(sizes, strides, start)));
  }
  const last = start + sizes.reduce((sum, size, d) => sum + (size - 1) * strides[d]!, 0);
  if (start < 0 || last >= data.length) {
    throw new NdArrowError(
      "InvalidArgument",
      `strided walk reaches index ${last}, out of range for ${data.length} values`,
    );
  }
  const width = data.values.BYTES_PER_ELEMENT;
  const out = new Uint8Array(total * width);
  copyBlocks(data.values, start, out, 0, fast);
  return makeVector(build(data.type, total, 0, undefined, { data: retype(out, data.values) }));
}

/**
 * One part for {@link scatterStrided}: a walk of shape `sizes` over
 * `values`, placed at `start` of the result. The walk reads `values` from
 * `sourceStart` (default 0) with `sourceStrides` (default: row-major strides
 * of `sizes`, i.e. all of `values` in order); a part may thus be a window of
 * a bigger array.
 */
export interface StridedPart<T extends DataType = DataType> {
  values: Vector<T>;
  sizes: readonly number[];
  start: number;
  sourceStart?: number;
  sourceStrides?: readonly number[];
}

/**
 * The inverse of {@link takeStrided} over several parts: a new vector of
 * `length` values where each part's walk lands at `start` + its
 * coordinates times `strides`. Every position must be written by exactly
 * one part (the caller checks the tiling). Fixed-width values without nulls
 * are copied block by block from the sources into the result; others are
 * cut out of their sources (a part that reads all its values in order is
 * not copied) and then gathered through one index array.
 */
export function scatterStrided<T extends DataType>(
  parts: readonly StridedPart<T>[],
  strides: readonly number[],
  length: number,
): Vector<T> {
  const datas = parts.map((p) => concatData(p.values.data));
  const first = datas[0];
  if (first === undefined) throw new NdArrowError("InvalidArgument", "nothing to scatter: no parts");
  const walks = parts.map((p) => ({ start: p.sourceStart ?? 0, strides: p.sourceStrides ?? rowMajorStrides(p.sizes) }));
  const plans = parts.map((p, k) => blockPlan(p.sizes, walks[k]!.strides, strides));
  const fast =
    kindOf(first.type) === "fixed" && datas.every((d) => d.nullCount === 0) && plans.every((p) => p !== undefined);
  if (!fast) {
    const index = new Uint32Array(length);
    let base = 0;
    const cuts = parts.map((p, k) => {
      const cells = stridedIndices(p.sizes, strides, p.start);
      for (let j = 0; j < cells.length; j++) index[cells[j]!] = base + j;
      base += cells.length;
      const walk = walks[k]!;
      const whole = walk.start === 0 && cells.length === datas[k]!.length && p.sourceStrides === undefined;
      return whole ? datas[k]! : takeData(datas[k]!, stridedIndices(p.sizes, walk.strides, walk.start));
    });
    return makeVector(takeData(concatData(cuts), index));
  }
  const width = first.values.BYTES_PER_ELEMENT;
  const out = new Uint8Array(length * width);
  for (const [k, p] of parts.entries()) copyBlocks(datas[k]!.values, walks[k]!.start, out, p.start, plans[k]!);
  return makeVector(build(first.type, length, 0, undefined, { data: retype(out, first.values) }));
}

/**
 * A strided copy as blocks: the outer sizes, both sides' outer strides, and
 * the block length; `fill` when the source repeats one value over the block
 * (source stride 0, a broadcast), else the block is contiguous on both sides.
 */
interface BlockPlan {
  outer: number[];
  srcStrides: number[];
  dstStrides: number[];
  block: number;
  fill: boolean;
}

/**
 * Merges the trailing dims that are contiguous on both sides (`src` and
 * `dst` strides), or repeat one source value into a contiguous destination,
 * into one block; `undefined` when blocks would be shorter than
 * {@link BLOCK_RUN} values (element gathers are faster then).
 */
function blockPlan(sizes: readonly number[], src: readonly number[], dst: readonly number[]): BlockPlan | undefined {
  let d = sizes.length;
  while (d > 0 && sizes[d - 1] === 1) d--;
  const fill = d > 0 && src[d - 1] === 0;
  let block = 1;
  while (d > 0 && (sizes[d - 1] === 1 || (src[d - 1] === (fill ? 0 : block) && dst[d - 1] === block))) {
    block *= sizes[d - 1]!;
    d--;
  }
  if (block < BLOCK_RUN && d > 0) return undefined;
  return { outer: sizes.slice(0, d), srcStrides: src.slice(0, d), dstStrides: dst.slice(0, d), block, fill };
}

function copyBlocks(values: TypedArray, srcStart: number, out: Uint8Array, dstStart: number, plan: BlockPlan): void {
  const from = stridedIndices(plan.outer, plan.srcStrides, srcStart);
  const to = stridedIndices(plan.outer, plan.dstStrides, dstStart);
  const width = values.BYTES_PER_ELEMENT;
  if (plan.fill) {
    for (let k = 0; k < from.length; k++) fillRun(values, from[k]!, out, to[k]!, to[k]! + plan.block);
    return;
  }
  const src = bytesOf(values);
  const bytes = plan.block * width;
  for (let k = 0; k < from.length; k++) {
    const at = from[k]! * width;
    out.set(src.subarray(at, at + bytes), to[k]! * width);
  }
}

/** Row-major strides of `sizes` (the last dim has stride 1). */
export function rowMajorStrides(sizes: readonly number[]): number[] {
  const strides = new Array<number>(sizes.length);
  let step = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    strides[d] = step;
    step *= sizes[d]!;
  }
  return strides;
}
