/**
 * Name-aligned broadcasting, as xarray does it (README, API): an array
 * goes to a grid that holds all its dims; a dim of size 1 stretches, missing
 * dims are added, and the result follows the grid's dim order.
 */
import { NdArrowError } from "./errors.js";
import { NdArray, checkDims, toDims } from "./ndarray.js";
import type { Dim, DimsInput } from "./ndarray.js";
import { NdRecordBatch } from "./batch.js";
import { rowMajorStrides, takeStrided } from "./strided.js";

/**
 * `array` broadcast to `grid`: the result has the grid's dims, in the grid's
 * order, and the array's attributes and metadata. Each grid cell holds the
 * array's value at the same coordinates along the array's own dims; dims
 * the array lacks, or has with size 1, repeat it. Values are gathered with
 * one typed index array (strides), no per-value objects. When the layout
 * does not change, the values are reused without a copy.
 *
 * Throws `InvalidDims` when the grid is not valid or lacks one of the
 * array's dims, and `GridMismatch` when a dim has another size in the grid
 * and the array's size is not 1 (both name the dim and the sizes).
 *
 * @example
 * const lat = NdArray.from(new Float32Array([-45, 0, 45]), { dims: { lat: 3 } });
 * broadcast(lat, { time: 2, lat: 3, lon: 4 }).shape; // [2, 3, 4]
 */
export function broadcast(array: NdArray, grid: DimsInput): NdArray {
  const dims = toDims(grid);
  checkDims(dims);
  const position = new Map(dims.map((d, i) => [d.name, i]));
  const strides = new Array<number>(dims.length).fill(0);
  const own = rowMajorStrides(array.shape);
  array.dims.forEach(({ name, size }, i) => {
    const at = position.get(name);
    const gridDims = `[${dims.map((d) => `${d.name}: ${d.size}`).join(", ")}]`;
    if (at === undefined) {
      throw new NdArrowError("InvalidDims", `dim "${name}" (size ${size}) of the array is not in the grid ${gridDims}`);
    }
    const target = dims[at]!.size;
    if (size === target) strides[at] = own[i]!;
    else if (size !== 1) {
      throw new NdArrowError(
        "GridMismatch",
        `dim "${name}" has size ${size} in the array but ${target} in the grid; only size 1 broadcasts`,
      );
    }
  });
  const sizes = dims.map((d) => d.size);
  const same = array.size === sizes.reduce((n, s) => n * s, 1) && isRowMajor(sizes, strides);
  const values = same ? array.values : takeStrided(array.values, sizes, strides);
  return new NdArray(values, dims, array.attrs, array.metadata);
}

/**
 * Every array of `batch` broadcast to the batch grid, same names, order and
 * global attributes.
 *
 * @example
 * broadcastBatch(new NdRecordBatch({ sst, lat })).get("lat")!.shape; // the grid's shape
 */
export function broadcastBatch(batch: NdRecordBatch): NdRecordBatch {
  const grid = batch.grid();
  return new NdRecordBatch(
    batch.arrays().map(([name, array]) => [name, broadcastNamed(array, grid, name)] as const),
    batch.globalAttrs,
  );
}

/** {@link broadcast} with errors that name the array (column). */
export function broadcastNamed(array: NdArray, grid: readonly Dim[], column: string): NdArray {
  try {
    return broadcast(array, grid);
  } catch (err) {
    if (err instanceof NdArrowError && err.column === undefined) {
      throw new NdArrowError(err.code, err.message, { column, cause: err });
    }
    throw err;
  }
}

/** True when the strided walk is 0, 1, 2, ...: the values can be reused as they are. */
function isRowMajor(sizes: readonly number[], strides: readonly number[]): boolean {
  const natural = rowMajorStrides(sizes);
  return sizes.every((size, d) => size <= 1 || strides[d] === natural[d]);
}
