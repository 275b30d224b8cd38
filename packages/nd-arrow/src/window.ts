/**
 * Windows: a box of cells given per dim as `[start, stop)` (like Python
 * slices), and `slice`, the window of one NdArray. `assemble` takes a window
 * too, to cut the cells of a set of chunks in one strided copy.
 */
import { NdArrowError } from "./errors.js";
import { NdArray } from "./ndarray.js";
import type { Dim } from "./ndarray.js";
import { rowMajorStrides, takeStrided } from "./strided.js";

/**
 * A box of cells: for each named dim, `[start, stop)` (start included, stop
 * excluded). Dims not named are taken whole.
 */
export type Window = Readonly<Record<string, readonly [number, number]>>;

/**
 * The `[start, stop)` of every dim of `extent` (`{ name, start, size }`:
 * where the dims begin and how many cells they hold), from `window`.
 * Throws `InvalidArgument` naming the dim for a name that is not in
 * `extent`, bounds that are not integers with start <= stop, or bounds
 * outside the extent.
 */
export function resolveWindow(
  window: Window,
  extent: readonly { name: string; start: number; size: number }[],
  what: string,
): [number, number][] {
  if (typeof window !== "object" || window === null) {
    throw new NdArrowError("InvalidArgument", `a window is an object of [start, stop) per dim, got ${String(window)}`);
  }
  const names = extent.map((d) => d.name);
  for (const name of Object.keys(window)) {
    if (!names.includes(name)) {
      throw new NdArrowError("InvalidArgument", `window names dim "${name}", ${what} has dims [${names.join(", ")}]`);
    }
  }
  return extent.map(({ name, start, size }) => {
    if (!Object.hasOwn(window, name)) return [start, start + size];
    const bounds = window[name];
    const [a, b] = Array.isArray(bounds) ? bounds : [];
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || a! > b!) {
      throw new NdArrowError(
        "InvalidArgument",
        `window along "${name}" is ${JSON.stringify(bounds)}, expected [start, stop) integers with start <= stop`,
      );
    }
    if (a! < start || b! > start + size) {
      throw new NdArrowError(
        "InvalidArgument",
        `window along "${name}" is [${a}, ${b}), outside the extent of ${what} [${start}, ${start + size})`,
      );
    }
    return [a!, b!];
  });
}

/**
 * The cells of `array` inside `window` (on the array's own dims, from 0), as
 * a new array with the same attributes and metadata; the array itself when
 * the window covers it whole. One strided copy on the Arrow buffers, nulls
 * kept, for every value type.
 *
 * Throws `InvalidArgument` naming the dim for an unknown dim or bounds
 * outside the array.
 *
 * @example
 * slice(sst, { lat: [10, 20] }).shape; // [365, 10, 360] for sst(time, lat, lon)
 */
export function slice(array: NdArray, window: Window): NdArray {
  const bounds = resolveWindow(
    window,
    array.dims.map((d) => ({ name: d.name, start: 0, size: d.size })),
    "the array",
  );
  const shape = bounds.map(([a, b]) => b - a);
  if (shape.every((size, i) => size === array.dims[i]!.size)) return array;
  const strides = rowMajorStrides(array.shape);
  const base = bounds.reduce((sum, [a], i) => sum + a * strides[i]!, 0);
  const dims: Dim[] = array.dims.map((d, i) => ({ name: d.name, size: shape[i]! }));
  return new NdArray(takeStrided(array.values, shape, strides, base), dims, array.attrs, array.metadata);
}
