/**
 * Windows and selections (README "Windows"): a `Window` is a box of cells
 * given per dim as `[start, stop)`, checked to lie inside the extent; a
 * `Selection` is what a user asks of a reader (`read` of netCDF and Zarr,
 * a dataset's `isel`): per dim a `[start, stop)` slice or an index that
 * drops the dim, taken as Python takes them. `slice` is the window of one
 * NdArray; `assemble` takes a window too, to cut the cells of a set of
 * chunks in one strided copy.
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
 * What a read selects (README "Windows"): per named dim a `[start, stop)`
 * range as in a {@link Window} (taken like a Python slice: a negative end
 * counts from the end, ends past the dim are clamped, a stop at or before
 * the start selects nothing) or an integer index (picks one cell and drops
 * the dim; negative counts from the end). Dims not named are taken whole.
 *
 * @example
 * await file.read("sst", { time: 0, lat: [10, 20] }); // sst(lat 10, lon): time dropped
 */
export type Selection = Readonly<Record<string, number | Window[string]>>;

/** What a {@link Selection} keeps of one dim: cells `[start, stop)`; `drop` when an index picked one cell and removed the dim. */
export interface SelectedDim {
  readonly name: string;
  readonly start: number;
  readonly stop: number;
  readonly drop: boolean;
}

/**
 * The cells `[start, stop)` of a dim of `size` that the slice `start:stop`
 * keeps, as Python slices and xarray's `isel` take them: a negative end
 * counts from the end, ends past the dim are clamped to it, and a stop at
 * or before the start keeps nothing (`[start, start)`).
 */
export function sliceBounds(size: number, start: number, stop: number): [number, number] {
  const clamp = (i: number) => Math.min(size, Math.max(0, i < 0 ? i + size : i));
  const a = clamp(start);
  return [a, Math.max(a, clamp(stop))];
}

/**
 * What `selection` keeps of each of `dims` (in `dims` order), by the rules
 * of {@link Selection}. `what` names the thing selected in messages
 * (`variable "sst"`).
 *
 * Throws `NdArrowError`: `DimNotFound` naming the dim and the dims there
 * are, for a name that is not one of `dims`; `InvalidArgument` naming the
 * dim for a value that is not an integer or a pair of integers, or an index
 * outside the dim.
 *
 * @example
 * resolveSelection({ time: -1, lat: [0, 500] }, [{ name: "time", size: 4 }, { name: "lat", size: 180 }], "sst");
 * // [{ name: "time", start: 3, stop: 4, drop: true }, { name: "lat", start: 0, stop: 180, drop: false }]
 */
export function resolveSelection(selection: Selection, dims: readonly Dim[], what: string): SelectedDim[] {
  if (typeof selection !== "object" || selection === null || Array.isArray(selection)) {
    throw new NdArrowError(
      "InvalidArgument",
      `a selection is an object of dim: index or [start, stop), got ${String(selection)}`,
    );
  }
  const names = dims.map((d) => d.name);
  for (const name of Object.keys(selection)) {
    if (!names.includes(name)) {
      throw new NdArrowError("DimNotFound", `selection names dim "${name}", ${what} has dims [${names.join(", ")}]`);
    }
  }
  return dims.map(({ name, size }) => {
    if (!Object.hasOwn(selection, name)) return { name, start: 0, stop: size, drop: false };
    const value: unknown = selection[name];
    if (Number.isSafeInteger(value)) {
      const index = (value as number) < 0 ? (value as number) + size : (value as number);
      if (index < 0 || index >= size) {
        throw new NdArrowError(
          "InvalidArgument",
          `index ${String(value)} along "${name}" is out of range for size ${size} (${what})`,
        );
      }
      return { name, start: index, stop: index + 1, drop: true };
    }
    const [a, b] = Array.isArray(value) && value.length === 2 ? value : [];
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) {
      throw new NdArrowError(
        "InvalidArgument",
        `selection along "${name}" is ${JSON.stringify(value)}, expected an integer or [start, stop) integers (${what})`,
      );
    }
    const [start, stop] = sliceBounds(size, a as number, b as number);
    return { name, start, stop, drop: false };
  });
}

/**
 * The `[start, stop)` of every dim of `extent` (`{ name, start, size }`:
 * where the dims begin and how many cells they hold), from `window`.
 * Throws `DimNotFound` naming the dim for a name that is not in `extent`;
 * `InvalidArgument` for bounds that are not integers with start <= stop, or bounds
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
      throw new NdArrowError("DimNotFound", `window names dim "${name}", ${what} has dims [${names.join(", ")}]`);
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
 * Throws `DimNotFound` naming the dim for an unknown dim, `InvalidArgument`
 * for bounds outside the array.
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
