/**
 * Resolving `sel` on coordinate values as xarray does (pandas' `Index`
 * rules, `label-index.ts`): which pieces of the coordinate variable to read
 * (`coordinate.ts`: pruned with the coordinate's stats where the table has
 * them, kept on the view), then which cells a value, a period or a slice
 * selects.
 */
import { LanceNdError } from "../errors.js";
import type { NdTable } from "../table.js";
import { Coordinate, type CoordinateCache } from "./coordinate.js";
import { type Bound, exactIndices, sliceIndices } from "./label-index.js";
import type { DatasetPlan } from "./plan.js";
import {
  type CoordinateNumber,
  dimIndex,
  type DimRange,
  type SelOptions,
  type SelSpec,
  type SelValue,
} from "./selection.js";
import type { DatePeriod } from "./date-period.js";

/**
 * `ranges` narrowed by `sel(spec, options)`.
 *
 * @throws LanceNdError `DimNotFound` for an unknown or dropped dim;
 * `InvalidInput` naming the dim for a dim without a coordinate variable, a
 * value not found (with the coordinate's range) or none within `tolerance`,
 * a slice on a coordinate that is not monotonic, cells that are not one run
 * (a repeated value or a period apart), `method: "nearest"` with a slice, a
 * date on a coordinate that is not a time, or a date its calendar lacks.
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
  if (Array.isArray(value)) {
    if (options.method === "nearest")
      throw new LanceNdError("InvalidInput", `sel: method "nearest" takes single values, "${coord.dim}" has a slice`, {
        uri: coord.uri,
      });
    return sliceOn(coord, value[0] as SelValue, value[1] as SelValue);
  }
  const one = value as SelValue;
  const period = typeof one === "string" ? await coord.period(one) : undefined;
  const x = period?.start ?? (await coord.number(one));
  if (options.method === "nearest") return nearestOn(coord, x, options.tolerance, one);
  // A date coarser than the coordinate's values is a period (pandas' partial string indexing); else one instant.
  if (period !== undefined && period.resolution < (await coord.resolution())) return periodOn(coord, period, one);
  return exactOn(coord, x, one);
}

/** The cells equal to `x`: one drops the dim; several (a repeated value) keep it, as pandas' `get_loc` does. */
async function exactOn(coord: Coordinate, x: CoordinateNumber, shown: SelValue): Promise<DimRange> {
  const near = Number(x);
  const values = await coord.values(coord.pieces((s) => s === undefined || (s[0] <= near && near <= s[1]), false));
  const found = exactIndices(values, x);
  if (found.length === 0) throw await notFound(coord, `equals ${await shownValue(coord, shown, x)}`);
  if (found.length === 1) return { start: found[0]!, stop: found[0]! + 1, drop: true };
  return oneRun(coord, found, `the cells equal to ${await shownValue(coord, shown, x)}`);
}

/** The cells within a date's period, keeping the dim (pandas: `"2001-03"` on daily data is March). */
async function periodOn(coord: Coordinate, period: DatePeriod, shown: SelValue): Promise<DimRange> {
  const values = await coord.values(
    coord.pieces((s) => s === undefined || (s[0] < period.end && s[1] >= period.start), false),
  );
  const found = values.indices.filter((_, k) => values.values[k]! >= period.start && values.values[k]! < period.end);
  if (found.length > 0) return oneRun(coord, found, `the cells of ${String(shown)}`);
  const span = await coord.span();
  // pandas refuses a period wholly outside the values; one inside them that holds none selects nothing.
  if (span === undefined || period.end <= span[0] || period.start > span[1])
    throw await notFound(coord, `lies in ${String(shown)}`);
  return { start: coord.range.start, stop: coord.range.start, drop: false };
}

/** The nearest cell (ties to the larger value, as pandas), within `tolerance` when given. */
async function nearestOn(
  coord: Coordinate,
  x: CoordinateNumber,
  tolerance: number | undefined,
  shown: SelValue,
): Promise<DimRange> {
  const best = await coord.nearest(x);
  if (best === undefined)
    throw new LanceNdError("InvalidInput", `sel: "${coord.dim}" has only null values`, { uri: coord.uri });
  if (tolerance !== undefined && best.distance > tolerance) {
    throw new LanceNdError(
      "InvalidInput",
      `sel: no "${coord.dim}" value within tolerance ${tolerance} of ${await shownValue(coord, shown, x)}; ` +
        `the nearest is ${await coord.text(best.value)}`,
      { uri: coord.uri },
    );
  }
  return { start: best.index, stop: best.index + 1, drop: true };
}

/**
 * The cells of `slice(start, stop)` in the coordinate's own order (xarray):
 * on an ascending coordinate `start <= v <= stop`, on a descending one
 * `start >= v >= stop`; a start past the stop selects nothing. A date
 * bound covers its whole period (`2001-03-31` as a stop takes that day).
 */
async function sliceOn(coord: Coordinate, start: SelValue, stop: SelValue): Promise<DimRange> {
  const direction = await coord.direction();
  const [low, high] =
    direction === "ascending"
      ? [await lowerBound(coord, start), await upperBound(coord, stop)]
      : [await lowerBound(coord, stop), await upperBound(coord, start)];
  const [lo, hi] = [Number(low.value), Number(high.value)];
  const pieces = coord.pieces((s) => s === undefined || (s[0] <= hi && s[1] >= lo), true);
  const found = sliceIndices(await coord.values(pieces), low, high, direction);
  if (found === "not monotonic") {
    const hint = 'use method "nearest" with single values, or isel';
    throw new LanceNdError(
      "InvalidInput",
      `sel: "${coord.dim}" is not monotonic, so a slice of its values is not one run of cells; ${hint}`,
      { uri: coord.uri },
    );
  }
  if (found === "empty") return { start: coord.range.start, stop: coord.range.start, drop: false };
  return { ...found, drop: false };
}

/** The lowest value a slice bound lets in: the value, or the start of a date's period. */
async function lowerBound(coord: Coordinate, value: SelValue): Promise<Bound> {
  if (typeof value === "string") {
    const period = await coord.period(value);
    if (period !== undefined) return { value: period.start, inclusive: true };
  }
  return { value: await coord.number(value), inclusive: true };
}

/** The highest value a slice bound lets in: the value, or up to the end of a date's period. */
async function upperBound(coord: Coordinate, value: SelValue): Promise<Bound> {
  if (typeof value === "string") {
    const period = await coord.period(value);
    if (period !== undefined)
      return period.end > period.start
        ? { value: period.end, inclusive: false }
        : { value: period.start, inclusive: true };
  }
  return { value: await coord.number(value), inclusive: true };
}

/** `found` (ascending grid indices) as one kept range; cells apart cannot be one selection of a dim. */
function oneRun(coord: Coordinate, found: readonly number[], what: string): DimRange {
  const [first, last] = [found[0]!, found.at(-1)!];
  if (last - first + 1 !== found.length) {
    throw new LanceNdError(
      "InvalidInput",
      `sel: ${what} are not next to each other along "${coord.dim}" (indices ${found.slice(0, 5).join(", ")}` +
        `${found.length > 5 ? ", ..." : ""}); select them with isel`,
      { uri: coord.uri },
    );
  }
  return { start: first, stop: last + 1, drop: false };
}

/** A selected value as a message shows it: text as given, a bigint with its `n`, a Date as the coordinate's date. */
async function shownValue(coord: Coordinate, value: SelValue, x: CoordinateNumber): Promise<string> {
  if (typeof value === "bigint") return `${value}n`;
  if (value instanceof Date) return `${await coord.text(x)} (${x})`;
  return String(value);
}

/** "no `dim` value <what>; the selection has values from a to b; try method nearest". */
async function notFound(coord: Coordinate, what: string): Promise<LanceNdError> {
  const span = await coord.span();
  const has =
    span === undefined ? "no values" : `values from ${await coord.text(span[0])} to ${await coord.text(span[1])}`;
  return new LanceNdError(
    "InvalidInput",
    `sel: no "${coord.dim}" value ${what}; the selection has ${has}; try method "nearest"`,
    { uri: coord.uri },
  );
}
