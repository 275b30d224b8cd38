/**
 * Strided walks over a row-major grid: `stridedIndices` lists the positions
 * of a walk, `takeStrided` copies a walk out of a vector and
 * `scatterStrided` places parts into a new vector. Fixed-width values
 * without nulls are copied run by run (`copy-runs.ts`); anything else goes
 * through the gather kernel (`take.ts`).
 */
import { makeVector } from "apache-arrow";
import type { DataType, Vector } from "apache-arrow";
import { NdArrowError } from "./errors.js";
import { concatData } from "./concat.js";
import { copyRuns, runPlan } from "./copy-runs.js";
import { stridedIndices } from "./strided-indices.js";
import { BLOCK_RUN, takeData } from "./take.js";
import { build, kindOf, retype } from "./value-buffers.js";

export { stridedIndices } from "./strided-indices.js";

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
  const plan = runPlan(sizes, strides, rowMajorStrides(sizes));
  const short = plan.run < BLOCK_RUN && plan.outer.length > 0;
  if (kindOf(data.type) !== "fixed" || data.nullCount > 0 || short || total === 0) {
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
  copyRuns(data.values, start, out, 0, plan);
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
 * are copied run by run from the sources into the result, however short
 * the runs (the rows at a region's edges); others are
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
  if (kindOf(first.type) !== "fixed" || datas.some((d) => d.nullCount > 0)) {
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
  for (const [k, p] of parts.entries()) {
    copyRuns(datas[k]!.values, walks[k]!.start, out, p.start, runPlan(p.sizes, walks[k]!.strides, strides));
  }
  return makeVector(build(first.type, length, 0, undefined, { data: retype(out, first.values) }));
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
