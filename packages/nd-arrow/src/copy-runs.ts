/**
 * Strided copies of fixed-width values as contiguous runs: the trailing
 * dims that are contiguous on both sides merge into one run, and each run
 * is one `set` of a subarray when long or a tight loop over 1, 2 or 4-byte
 * units when short, whatever its length. A run whose source repeats one
 * value (a broadcast) is a fill.
 */
import type { TypedArray } from "./data-type.js";
import { stridedIndices } from "./strided-indices.js";
import { fillRun } from "./take.js";
import { unitView } from "./value-buffers.js";

/** Runs at least this many 1, 2 or 4-byte units are copied with `subarray`/`set`; shorter ones in a loop. */
const SET_UNITS = 64;

/**
 * A strided copy as runs: the outer sizes, both sides' outer strides, and
 * the run length in values; `fill` when the source repeats one value over
 * the run (source stride 0, a broadcast), else the run is contiguous on
 * both sides.
 */
export interface RunPlan {
  outer: number[];
  srcStrides: number[];
  dstStrides: number[];
  run: number;
  fill: boolean;
}

/**
 * Merges the trailing dims of a walk of shape `sizes` that are contiguous
 * on both sides (`src` and `dst` strides), or repeat one source value into
 * a contiguous destination, into one run.
 */
export function runPlan(sizes: readonly number[], src: readonly number[], dst: readonly number[]): RunPlan {
  let d = sizes.length;
  while (d > 0 && sizes[d - 1] === 1) d--;
  const fill = d > 0 && src[d - 1] === 0;
  let run = 1;
  while (d > 0 && (sizes[d - 1] === 1 || (src[d - 1] === (fill ? 0 : run) && dst[d - 1] === run))) {
    run *= sizes[d - 1]!;
    d--;
  }
  return { outer: sizes.slice(0, d), srcStrides: src.slice(0, d), dstStrides: dst.slice(0, d), run, fill };
}

/**
 * Copies the walk `plan` of `values` from value `srcStart` into the bytes
 * `out` from value `dstStart` (`out` holds values of the same width).
 * Values go as 1, 2 or 4-byte units (8-byte values as two 4-byte units), so
 * float bit patterns and 64-bit integers pass through untouched.
 */
export function copyRuns(values: TypedArray, srcStart: number, out: Uint8Array, dstStart: number, plan: RunPlan): void {
  const from = stridedIndices(plan.outer, plan.srcStrides, srcStart);
  const to = stridedIndices(plan.outer, plan.dstStrides, dstStart);
  const width = values.BYTES_PER_ELEMENT;
  const unit = Math.min(width, 4);
  const per = width / unit;
  const src = unitView(values.buffer, values.byteOffset, values.byteLength, unit);
  const dst = unitView(out.buffer, out.byteOffset, out.byteLength, unit);
  const units = plan.run * per;
  if (plan.fill) {
    for (let k = 0; k < from.length; k++) fillUnits(values, src, from[k]!, out, dst, to[k]!, plan.run, per);
    return;
  }
  if (units >= SET_UNITS) {
    for (let k = 0; k < from.length; k++) {
      const at = from[k]! * per;
      dst.set(src.subarray(at, at + units), to[k]! * per);
    }
    return;
  }
  for (let k = 0; k < from.length; k++) {
    const at = from[k]! * per;
    const into = to[k]! * per;
    for (let j = 0; j < units; j++) dst[into + j] = src[at + j]!;
  }
}

type Units = Uint8Array | Uint16Array | Uint32Array;

/**
 * Fills `run` values of `out` from value `to` with value `at` of `values`
 * (`src` and `dst` are their unit views, `per` units a value).
 */
function fillUnits(
  values: TypedArray,
  src: Units,
  at: number,
  out: Uint8Array,
  dst: Units,
  to: number,
  run: number,
  per: number,
) {
  if (run * per >= SET_UNITS) {
    fillRun(values, at, out, to, to + run);
    return;
  }
  for (let i = 0; i < run; i++) {
    for (let u = 0; u < per; u++) dst[(to + i) * per + u] = src[at * per + u]!;
  }
}
