/**
 * Selections on a dataset's grid: what each dim keeps (`[start, stop)` in
 * grid indices, and whether an integer selection dropped it), and `isel` on
 * indices (`sel` on coordinate values: `sel.ts`).
 */
import { isNdArrowError, resolveSelection } from "@lance-nd/nd-arrow";
import type { Dim, Selection } from "@lance-nd/nd-arrow";
import { LanceNdError } from "../errors.js";

/** What a view keeps of one grid dim: cells `[start, stop)`; `drop` when an integer picked one cell and removed the dim. */
export interface DimRange {
  readonly start: number;
  readonly stop: number;
  readonly drop: boolean;
}

/**
 * `isel` input: a `Selection` of `@lance-nd/nd-arrow` (per dim an index that
 * picks one cell and drops the dim, or a `[start, stop)` Python slice; the
 * reader contract of nd-arrow README "Windows") whose indices may also be
 * bigints (taken exactly; one past `Number.MAX_SAFE_INTEGER` is out of range
 * of any dim).
 */
export type IselSpec = Readonly<Record<string, Selection[string] | bigint | readonly (number | bigint)[]>>;

/** `isel` input after {@link iselSpec}: numbers only. */
export type IselIndices = Readonly<Record<string, number | readonly [number, number]>>;

/**
 * A coordinate value for `sel`: a number, a bigint, a Date (an instant, on
 * a time coordinate), or text: on a time coordinate an ISO date of the
 * coordinate's calendar, whole or partial (`"2001-03"` is the month, as in
 * pandas), on any other a number (exact on a 64-bit integer coordinate).
 */
export type SelValue = number | bigint | Date | string;

/**
 * `sel` input: per dim a value, or a slice `[start, stop]` (two values,
 * both included, taken in the coordinate's own order as xarray's
 * `slice(start, stop)`: on a descending coordinate start is the larger).
 */
export type SelSpec = Readonly<Record<string, SelValue | readonly SelValue[]>>;

/** Options of `sel`. */
export interface SelOptions {
  /** `"nearest"`: a single value picks the nearest coordinate value instead of an exact match. */
  method?: "nearest";
  /**
   * With `method: "nearest"`: the largest distance allowed from the value,
   * in the coordinate's units (a time coordinate's: its CF `units`, or a
   * timestamp's unit); farther is "not found", as xarray's `tolerance`.
   */
  tolerance?: number;
}

/** The whole grid: every dim kept whole. */
export function wholeGrid(grid: readonly Dim[]): DimRange[] {
  return grid.map((d) => ({ start: 0, stop: d.size, drop: false }));
}

/** The dims a view still has (not dropped), with their selected sizes. */
export function keptDims(grid: readonly Dim[], ranges: readonly DimRange[]): Dim[] {
  return grid.flatMap((d, i) => (ranges[i]!.drop ? [] : [{ name: d.name, size: ranges[i]!.stop - ranges[i]!.start }]));
}

/**
 * The index of `dim` in `grid`, checked: a dim of the grid that no integer
 * selection dropped.
 *
 * @throws LanceNdError `DimNotFound` naming the dim and the dims there are.
 */
export function dimIndex(
  uri: string,
  grid: readonly Dim[],
  ranges: readonly DimRange[],
  dim: string,
  op: string,
): number {
  const at = grid.findIndex((d) => d.name === dim);
  if (at < 0 || ranges[at]!.drop) {
    const dims = keptDims(grid, ranges)
      .map((d) => `${d.name} (${d.size})`)
      .join(", ");
    const why = at < 0 ? "is not a dim of the dataset" : "was dropped by an earlier single-value selection";
    throw new LanceNdError("DimNotFound", `${op}: "${dim}" ${why}; the dims are ${dims === "" ? "none" : dims}`, {
      uri,
    });
  }
  return at;
}

/**
 * Checks the form of `isel` input (an object of integers or integer pairs,
 * numbers or bigints) and returns it with number indices.
 *
 * @throws LanceNdError `InvalidInput` naming the dim and its value for
 * anything else, and for a bigint past `Number.MAX_SAFE_INTEGER` (no dim is
 * that long).
 */
export function iselSpec(uri: string, spec: unknown): IselIndices {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
    throw new LanceNdError("InvalidInput", `isel takes an object of dim: index or [start, stop), got ${String(spec)}`, {
      uri,
    });
  }
  const out: Record<string, number | readonly [number, number]> = {};
  for (const [dim, value] of Object.entries(spec)) {
    const malformed = () =>
      new LanceNdError(
        "InvalidInput",
        `isel: "${dim}" is ${shown(value)}, expected an integer or [start, stop) integers`,
        { uri },
      );
    const index = (v: unknown): number => {
      if (Number.isSafeInteger(v)) return v as number;
      if (typeof v !== "bigint") throw malformed();
      if (v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(v);
      throw new LanceNdError("InvalidInput", `isel: index ${v}n along "${dim}" is past any dim's size`, { uri });
    };
    if (!Array.isArray(value)) out[dim] = index(value);
    else if (value.length === 2) out[dim] = [index(value[0]), index(value[1])];
    else throw malformed();
  }
  return out;
}

/** A value of user input as one line of a message (bigints with their `n`, arrays bracketed). */
function shown(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  if (Array.isArray(value)) return `[${value.map(shown).join(", ")}]`;
  if (typeof value === "string") return JSON.stringify(value);
  return String(value);
}

/**
 * `ranges` narrowed by `spec`, indices relative to what each dim keeps, by
 * nd-arrow's `resolveSelection` (the rules of a `Selection`).
 *
 * @throws LanceNdError `DimNotFound` for an unknown or dropped dim,
 * `InvalidInput` naming the dim and its size for an index outside it
 * (ranges are clamped).
 */
export function applyIsel(
  uri: string,
  grid: readonly Dim[],
  ranges: readonly DimRange[],
  spec: IselIndices,
): DimRange[] {
  const at = Object.keys(spec).map((dim) => dimIndex(uri, grid, ranges, dim, "isel"));
  let selected: ReturnType<typeof resolveSelection>;
  try {
    selected = resolveSelection(
      spec,
      at.map((i) => ({ name: grid[i]!.name, size: ranges[i]!.stop - ranges[i]!.start })),
      "the dataset",
    );
  } catch (cause) {
    if (!isNdArrowError(cause)) throw cause;
    throw new LanceNdError("InvalidInput", `isel: ${cause.detail}`, { uri, cause });
  }
  const out = [...ranges];
  at.forEach((i, k) => {
    const { start, stop, drop } = selected[k]!;
    out[i] = { start: ranges[i]!.start + start, stop: ranges[i]!.start + stop, drop };
  });
  return out;
}

/**
 * Coordinate values read for `sel`: `values[k]` sits at grid index
 * `indices[k]` (ascending). Numbers, or bigints for a 64-bit integer
 * coordinate (compared exactly: JavaScript orders a bigint and a number by
 * their exact values); NaN for a null.
 */
export interface CoordinateValues {
  indices: number[];
  values: (number | bigint)[];
}

/** A coordinate value or bound: a bigint on a 64-bit integer coordinate, else a number. */
export type CoordinateNumber = number | bigint;
