/**
 * Resolving `sel` on coordinate values: which pieces of the coordinate
 * variable to read (`coordinate.ts`: pruned with the coordinate's stats
 * where the table has them, kept on the view), then the index arithmetic of
 * `selection.ts`.
 */
import { LanceNdError } from "../errors.js";
import type { NdTable } from "../table.js";
import { Coordinate, type CoordinateCache } from "./coordinate.js";
import type { DatasetPlan } from "./plan.js";
import {
  type CoordinateNumber,
  dimIndex,
  exactIndex,
  rangeIndices,
  type DimRange,
  type SelOptions,
  type SelSpec,
  type SelValue,
} from "./selection.js";

/**
 * `ranges` narrowed by `sel(spec, options)`.
 *
 * @throws LanceNdError `DimNotFound` for an unknown or dropped dim;
 * `InvalidInput` naming the dim for a dim without a coordinate variable, a value not found (with
 * the coordinate's range), a range on a coordinate that is not monotonic,
 * `method: "nearest"` with a range, or a Date on a coordinate that is not a
 * time.
 */
export async function applySel(
  view: NdTable,
  plan: DatasetPlan,
  ranges: readonly DimRange[],
  spec: SelSpec,
  options: SelOptions,
  cache: CoordinateCache,
): Promise<DimRange[]> {
  const out = [...ranges];
  for (const [dim, value] of Object.entries(spec)) {
    const at = dimIndex(view.uri, plan.grid, ranges, dim, "sel");
    out[at] = await selectOn(new Coordinate(view, plan, at, ranges[at]!, cache), value, options);
  }
  return out;
}

async function selectOn(
  coord: Coordinate,
  value: SelValue | readonly SelValue[],
  options: SelOptions,
): Promise<DimRange> {
  const { dim, uri } = coord;
  if (Array.isArray(value)) {
    if (options.method === "nearest")
      throw new LanceNdError("InvalidInput", `sel: method "nearest" takes single values, "${dim}" has a range`, {
        uri,
      });
    const [a, b] = [await coord.number(value[0] as SelValue), await coord.number(value[1] as SelValue)];
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    // Stats are numbers (rounded past 2^53), so the bounds are too for pruning: rounding keeps order.
    const [low, high] = [Number(lo), Number(hi)];
    const values = await coord.values(coord.pieces((s) => s === undefined || (s[0] <= high && s[1] >= low), true));
    const found = rangeIndices(values, lo, hi);
    if (found === "not monotonic") {
      const hint = 'use method "nearest" with single values, or isel';
      throw new LanceNdError(
        "InvalidInput",
        `sel: "${dim}" is not monotonic, so a range of its values is not one slice; ${hint}`,
        { uri },
      );
    }
    if (found === "empty") return { start: coord.range.start, stop: coord.range.start, drop: false };
    return { ...found, drop: false };
  }
  const x = await coord.number(value as SelValue);
  if (options.method === "nearest") {
    const best = await coord.nearest(x);
    if (best === undefined) throw new LanceNdError("InvalidInput", `sel: "${dim}" has only null values`, { uri });
    return { start: best, stop: best + 1, drop: true };
  }
  const near = Number(x);
  const index = exactIndex(
    await coord.values(coord.pieces((s) => s === undefined || (s[0] <= near && near <= s[1]), false)),
    x,
  );
  if (index === undefined) {
    const all = await coord.values(coord.pieces(() => true, false));
    const span = spanOf(all.values);
    const has =
      span === undefined ? "no values" : `values from ${await coord.text(span[0])} to ${await coord.text(span[1])}`;
    const shown =
      typeof value === "bigint" ? `${value}n` : value instanceof Date ? `${await coord.text(x)} (${x})` : String(value);
    throw new LanceNdError(
      "InvalidInput",
      `sel: no "${dim}" value equals ${shown}; the selection has ${has}; try method "nearest"`,
      { uri },
    );
  }
  return { start: index, stop: index + 1, drop: true };
}

/** The smallest and largest of a coordinate's values (NaN left out), or undefined when none is left. */
function spanOf(values: readonly CoordinateNumber[]): [CoordinateNumber, CoordinateNumber] | undefined {
  let min: CoordinateNumber | undefined;
  let max: CoordinateNumber | undefined;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    if (min === undefined || v < min) min = v;
    if (max === undefined || v > max) max = v;
  }
  return min === undefined || max === undefined ? undefined : [min, max];
}
