/** A slice of an NdArray to plot: index some dims, keep two (a heatmap) or one (a line), as numbers. */
import { Precision, Type } from "apache-arrow";
import type { Float } from "apache-arrow";
import type { Dim, NdArray } from "@lance-nd/nd-arrow";
import { CliError } from "../errors.js";

/** A slice, row-major: `rows.size` rows of `cols.size` values (one row without a row dim: a line). */
export interface Slice2d {
  /** The values as numbers; null cells hold NaN and are set in `nullMask`. */
  values: Float64Array;
  /** 1 for a null cell; undefined when the array has no nulls. */
  nullMask: Uint8Array | undefined;
  /** The dim along the rows (the first of two kept dims); undefined when one dim is kept. */
  rows: Dim | undefined;
  /** The dim along the columns (the last kept dim). */
  cols: Dim;
}

/**
 * Picks `isel[dim]` along each named dim of `array` and returns what is left
 * as a slice of two dims (a heatmap) or one (a line). Dims of size 1 that
 * `isel` does not name are taken at 0, so one or two dims of size > 1 must
 * remain.
 *
 * Throws `CliError` `InvalidArgument` for a non-numeric array, a dim that
 * the array lacks, an index out of range, or no or more than two remaining
 * dims; the message names the variable (`name`) and its dims.
 *
 * @example
 * slice2d(sst, "sst", new Map([["time", 0]])); // rows lat, cols lon
 */
export function slice2d(array: NdArray, name: string, isel: ReadonlyMap<string, number>): Slice2d {
  const typeId = array.type.typeId;
  const shape = `(${array.dims.map((d) => `${d.name}=${d.size}`).join(", ")})`;
  const fail = (why: string): never => {
    throw new CliError("InvalidArgument", `variable "${name}" ${shape}: ${why}`, { variable: name });
  };
  if (typeId !== Type.Int && typeId !== Type.Float)
    fail(`has type ${String(array.type)}; a plot needs integers or floats`);
  for (const [dim, index] of isel) {
    const found = array.dims.find((d) => d.name === dim);
    if (found === undefined) fail(`has no dim "${dim}" to select with --isel`);
    else if (index >= found.size) fail(`index ${dim}=${index} is out of range (0 to ${found.size - 1})`);
  }
  const free = array.dims.map((d, axis) => ({ ...d, axis })).filter((d) => !isel.has(d.name) && d.size > 1);
  if (free.length === 0 || free.length > 2) {
    const left =
      free.length === 0
        ? "no dim of size > 1 is left"
        : `${free.length} dims of size > 1 are left (${free.map((d) => d.name).join(", ")})`;
    fail(
      `${left}; a plot draws 2 (a map) or 1 (a line): pick single indices or values of the others (--isel dim=i, --sel dim=v)`,
    );
  }
  // One dim left: a line, one row of its values.
  const [rowDim, colDim] = (free.length === 2 ? free : [{ name: "", size: 1, axis: -1 }, free[0]]) as [
    Dim & { axis: number },
    Dim & { axis: number },
  ];

  const strides = new Array<number>(array.dims.length);
  for (let axis = array.dims.length - 1, stride = 1; axis >= 0; axis--) {
    strides[axis] = stride;
    stride *= array.dims[axis]!.size;
  }
  let base = 0;
  array.dims.forEach((d, axis) => {
    base += (isel.get(d.name) ?? 0) * strides[axis]!;
  });
  const rowStride = rowDim.axis < 0 ? 0 : strides[rowDim.axis]!;
  const colStride = strides[colDim.axis]!;

  const half = typeId === Type.Float && (array.type as Float).precision === Precision.HALF;
  // Float16 vectors hold raw bits: read them as numbers.
  const source = (half ? Float32Array.from(array.values as Iterable<number>) : array.values.toArray()) as ArrayLike<
    number | bigint
  >;
  const hasNulls = array.values.nullCount > 0;
  const values = new Float64Array(rowDim.size * colDim.size);
  const nullMask = hasNulls ? new Uint8Array(values.length) : undefined;
  for (let r = 0, k = 0; r < rowDim.size; r++) {
    for (let c = 0; c < colDim.size; c++, k++) {
      const at = base + r * rowStride + c * colStride;
      if (nullMask !== undefined && !array.values.isValid(at)) {
        nullMask[k] = 1;
        values[k] = Number.NaN;
      } else {
        values[k] = Number(source[at]!);
      }
    }
  }
  return {
    values,
    nullMask,
    rows: rowDim.axis < 0 ? undefined : { name: rowDim.name, size: rowDim.size },
    cols: { name: colDim.name, size: colDim.size },
  };
}
