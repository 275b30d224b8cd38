/**
 * The index arithmetic of `sel` on coordinate values read, as pandas (and so
 * xarray) does it on an `Index`: every cell equal to a value (`get_loc`),
 * the nearest cell (`get_indexer(method="nearest")`, a tie taking the larger
 * value), and the cells between two bounds of a monotonic coordinate
 * (`slice_indexer`: start to stop in the coordinate's own order).
 */
import type { CoordinateNumber, CoordinateValues } from "./selection.js";

/** True when `a` and `b` are the same value (exact across bigint and number; NaN equals nothing). */
function sameValue(a: CoordinateNumber, b: CoordinateNumber): boolean {
  return !(a < b) && !(a > b) && !Number.isNaN(a) && !Number.isNaN(b);
}

/**
 * The grid indices of every value equal to `target`, ascending (none when
 * no value is): pandas' `get_loc` finds them all on a coordinate that
 * repeats a value.
 */
export function exactIndices(coord: CoordinateValues, target: CoordinateNumber): number[] {
  return coord.indices.filter((_, k) => sameValue(coord.values[k]!, target));
}

/**
 * `|value - target|` as `whole + part`: for numbers `part` alone; for a
 * bigint value `whole` is exact and `part` in (-1, 1) (a bigint minus a
 * number is not defined, and a difference past 2^53 is not a number exactly).
 */
interface Distance {
  whole: bigint;
  part: number;
}

/** The distance of `value` from `target`, or undefined for a null (NaN). */
function distanceOf(value: CoordinateNumber, target: CoordinateNumber): Distance | undefined {
  if (typeof value === "number") {
    const d = Math.abs(value - Number(target));
    return Number.isNaN(d) ? undefined : { whole: 0n, part: d };
  }
  const base = typeof target === "bigint" ? target : BigInt(Math.floor(target));
  const fraction = typeof target === "bigint" ? 0 : target - Math.floor(target);
  return value <= base ? { whole: base - value, part: fraction } : { whole: value - base, part: -fraction };
}

/** Negative, zero or positive as `a` is less than, equal to or greater than `b`. */
function compareDistance(a: Distance, b: Distance): number {
  const whole = a.whole - b.whole;
  if (whole > 1n || whole < -1n) return whole > 0n ? 1 : -1;
  return Number(whole) + (a.part - b.part);
}

/** A candidate of {@link nearestIndex}: a grid index, its value and its distance from the target. */
export interface Nearest {
  index: number;
  value: CoordinateNumber;
  distance: number;
}

/**
 * True when candidate `a` beats `b` as the nearest: a smaller distance, or
 * on a tie the larger value (pandas takes the larger of two values at the
 * same distance on ascending and descending coordinates alike), or on
 * equal values the lower index.
 */
export function nearer(a: Nearest, b: Nearest): boolean {
  if (a.distance !== b.distance) return a.distance < b.distance;
  if (a.value !== b.value) return a.value > b.value;
  return a.index < b.index;
}

/** The value nearest to `target` ({@link nearer}), or undefined when all are null. */
export function nearestIndex(coord: CoordinateValues, target: CoordinateNumber): Nearest | undefined {
  let best: { k: number; distance: Distance } | undefined;
  coord.values.forEach((v, k) => {
    const distance = distanceOf(v, target);
    if (distance === undefined) return;
    const order = best === undefined ? -1 : compareDistance(distance, best.distance);
    if (order < 0 || (order === 0 && v > coord.values[best!.k]!)) best = { k, distance };
  });
  if (best === undefined) return undefined;
  const { k, distance } = best;
  return { index: coord.indices[k]!, value: coord.values[k]!, distance: Number(distance.whole) + distance.part };
}

/** Which way a monotonic coordinate runs (a constant or one-value coordinate counts as ascending, as in pandas). */
export type Direction = "ascending" | "descending";

/** A bound of a slice: a value, and whether the value itself is inside (a period's end is not). */
export interface Bound {
  value: CoordinateNumber;
  inclusive: boolean;
}

/**
 * The grid indices `[start, stop)` whose values lie between `low` and
 * `high`, given the values of a coordinate running in `direction` (some
 * pieces may be left out, when stats showed they hold no value in range);
 * `"not monotonic"` when the values read are not monotonic or the values
 * in range are not one run, `"empty"` when no value is in range.
 */
export function sliceIndices(
  coord: CoordinateValues,
  low: Bound,
  high: Bound,
  direction: Direction,
): { start: number; stop: number } | "not monotonic" | "empty" {
  const { values, indices } = coord;
  for (let k = 1; k < values.length; k++) {
    const [a, b] = [values[k - 1]!, values[k]!];
    if (Number.isNaN(a) || Number.isNaN(b) || (direction === "ascending" ? b < a : b > a)) return "not monotonic";
  }
  if (values.length === 1 && Number.isNaN(values[0]!)) return "not monotonic";
  const above = (v: CoordinateNumber) => (low.inclusive ? v >= low.value : v > low.value);
  const below = (v: CoordinateNumber) => (high.inclusive ? v <= high.value : v < high.value);
  let first = -1;
  let last = -1;
  values.forEach((v, k) => {
    if (above(v) && below(v)) {
      if (first < 0) first = k;
      last = k;
    }
  });
  if (first < 0) return "empty";
  if (indices[last]! - indices[first]! !== last - first) return "not monotonic";
  return { start: indices[first]!, stop: indices[last]! + 1 };
}
