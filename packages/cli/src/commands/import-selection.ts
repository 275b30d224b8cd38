/**
 * The part of a source an import takes (CLI README, "Importing part of a
 * dataset"): `--isel dim=a:b` (indices, `[a, b)`), `--sel dim=v0:v1`
 * (coordinate values, both ends included as xarray's `sel(dim=slice(v0,
 * v1))`; ISO dates on a CF time coordinate, a partial date reaching the
 * end of its period as pandas reads it) and `--project v1,v2`. Each turns
 * into the region `[start, stop)` per dim that the reader opens, so only
 * the chunks the region touches are read.
 */
import type { NdArray } from "@lance-nd/nd-arrow";
import { dateToCfTime, isCfTimeUnits } from "@lance-nd/cf";
import type { SelArgs } from "../args/selection.js";
import { CliError } from "../errors.js";

/** What an import takes of each source; every part optional. */
export interface ImportSelection {
  /** `--isel`: `[start, stop)` by dim (negative from the end). */
  readonly isel?: ReadonlyMap<string, number | [number, number]>;
  /** `--sel`: a slice of coordinate values by dim. */
  readonly sel?: SelArgs;
  /** `--project`: the variables, with their coordinates. */
  readonly project?: readonly string[];
}

/** True when `selection` takes less than the whole source. */
export function selects(selection: ImportSelection | undefined): boolean {
  return (selection?.isel?.size ?? 0) > 0 || (selection?.sel?.size ?? 0) > 0 || (selection?.project?.length ?? 0) > 0;
}

/** What the region needs of an opened source: its dims and a coordinate's values. */
export interface RegionSource {
  readonly path: string;
  readonly dims: readonly { readonly name: string; readonly size: number }[];
  readonly variables: readonly { readonly name: string; readonly dims: readonly { readonly name: string }[] }[];
  read(name: string): Promise<NdArray>;
}

/** A region by dim: `[start, stop)` keeps the dim, an index (`--isel dim=i`) drops it, as xarray's `isel`. */
export type Region = Readonly<Record<string, readonly [number, number] | number>>;

/**
 * The region `selection` takes of `source`: `[start, stop)` or an index by
 * dim, from `--isel` as given and from `--sel` on each dim's coordinate
 * variable (a single value is the index of that value, or of the nearest
 * with `method=nearest`, as xarray's `sel`; a value found in a run of
 * cells keeps them all). `InvalidArgument` (one line, naming the source
 * and the dim) for an index outside its dim,
 * an unknown dim, a dim with no coordinate, a coordinate that is not
 * monotonic, a date on a coordinate that is not a CF time, a value not
 * found (or none within `tolerance`), and a slice that selects nothing.
 */
export async function regionOf(source: RegionSource, selection: ImportSelection): Promise<Region> {
  const region: Record<string, readonly [number, number] | number> = {};
  const fail = (message: string) =>
    new CliError("InvalidArgument", `${source.path}: ${message}`, { path: source.path });
  const dimOf = (dim: string, option: string) => {
    const found = source.dims.find((d) => d.name === dim);
    if (found === undefined)
      throw fail(`${option} ${dim}: no such dim (the source has ${source.dims.map((d) => d.name).join(", ")})`);
    return found;
  };
  for (const [dim, value] of selection.isel ?? []) {
    const { size } = dimOf(dim, "--isel");
    if (!Array.isArray(value)) {
      const index = value < 0 ? size + value : value;
      if (index < 0 || index >= size) throw fail(`--isel ${dim}=${value} is outside the dim (it has ${size} cells)`);
      region[dim] = index;
      continue;
    }
    const [start, stop] = value.map((i) => Math.min(size, Math.max(0, i < 0 ? size + i : i)));
    if (stop! <= start!) throw fail(`--isel ${dim}=${value.join(":")} selects nothing (the dim has ${size} cells)`);
    region[dim] = [start!, stop!];
  }
  const sel = selection.sel;
  for (const [dim, value] of sel ?? []) {
    dimOf(dim, "--sel");
    if (Object.hasOwn(region, dim)) throw fail(`--isel and --sel both select ${dim}: give one`);
    if (Array.isArray(value) && sel!.method === "nearest")
      throw fail(`--sel ${dim}=${value.join(":")}: method=nearest takes single values, not a slice`);
    if (!source.variables.some((v) => v.name === dim && v.dims.length === 1))
      throw fail(`--sel ${dim}: the dim has no coordinate variable (use --isel)`);
    const coordinate = coordinateOf(await source.read(dim), dim, fail);
    region[dim] = Array.isArray(value)
      ? sliceOf(coordinate, dim, value as [unknown, unknown], fail)
      : cellsOfValue(coordinate, dim, value, sel!, fail);
  }
  return region;
}

/**
 * A `--sel` slice that selects no cell of a source along `dim`: a
 * `--concat` import leaves such a file out, as a selection of the
 * concatenated files would (import-concat-open.ts).
 */
export class EmptySelection extends CliError {
  constructor(
    /** The dim the slice selects nothing of. */
    readonly dim: string,
    error: CliError,
  ) {
    super("InvalidArgument", error.message, { path: error.path });
  }
}

/** A coordinate's values as numbers, and `bound`: where a `--sel` value falls among them. */
interface CoordinateNumbers {
  readonly values: readonly number[];
  /** The lowest number `value` takes (`high` false), or the bound it stays below or at (`exclusive` past a date's period). */
  bound(value: unknown, high: boolean): { at: number; exclusive: boolean };
}

/** `coordinate` as numbers; a date (ISO text) on a CF time coordinate as its CF time, else refused. */
function coordinateOf(coordinate: NdArray, dim: string, fail: (message: string) => CliError): CoordinateNumbers {
  const values = Array.from(coordinate.values as Iterable<number | bigint | null>, (v) => Number(v));
  const units = coordinate.attrs.get("units")?.toJS();
  const calendar = coordinate.attrs.get("calendar")?.toJS();
  const time = typeof units === "string" && isCfTimeUnits(units) ? units : undefined;
  return {
    values,
    bound: (value, high) => {
      if (typeof value !== "string") return { at: Number(value), exclusive: false };
      if (time === undefined) throw fail(`--sel ${dim}=${value}: a date, but "${dim}" is not a CF time coordinate`);
      const [start, next] = period(value);
      const at = dateToCfTime(high ? next : start, time, typeof calendar === "string" ? calendar : undefined);
      return { at, exclusive: high };
    },
  };
}

/**
 * The cells `[start, stop)` of `coordinate` from `from` to `to`, both
 * included, in the coordinate's own order (`from` > `to` on a descending
 * one, as xarray's `slice`); a date reaches the end of its period.
 */
function sliceOf(
  { values, bound }: CoordinateNumbers,
  dim: string,
  [from, to]: [unknown, unknown],
  fail: (message: string) => CliError,
): readonly [number, number] {
  const ascending = values.length < 2 || values.at(-1)! >= values[0]!;
  for (let i = 1; i < values.length; i++) {
    if (ascending ? values[i]! < values[i - 1]! : values[i]! > values[i - 1]!)
      throw fail(`--sel ${dim}: its coordinate is not monotonic, so a slice of it is not one run (use --isel)`);
  }
  const low = bound(ascending ? from : to, false);
  const high = bound(ascending ? to : from, true);
  const inside = (v: number) => v >= low.at && (high.exclusive ? v < high.at : v <= high.at);
  const start = values.findIndex(inside);
  const stop = values.findLastIndex(inside) + 1;
  if (start < 0)
    throw new EmptySelection(
      dim,
      fail(
        `--sel ${dim}=${String(from)}:${String(to)} selects nothing (the coordinate runs from ${values[0]} to ${values.at(-1)})`,
      ),
    );
  return [start, stop];
}

/**
 * The cell of `value` (an index: the dim dropped), or the run of cells
 * that hold it (kept), as xarray's `sel(dim=value)`; with `method=nearest`
 * the nearest cell (a tie: the larger value) within `tolerance`. A single
 * date is taken with `method=nearest` only (as a slice it is its period).
 */
function cellsOfValue(
  { values, bound }: CoordinateNumbers,
  dim: string,
  value: unknown,
  sel: SelArgs,
  fail: (message: string) => CliError,
): number | readonly [number, number] {
  const text = `--sel ${dim}=${String(value)}`;
  if (typeof value === "string" && sel.method !== "nearest")
    throw fail(`${text}: give a slice (${dim}=${value}:${value}, its whole period) or method=nearest`);
  const target = bound(value, false).at;
  if (sel.method === "nearest") {
    let best = -1;
    for (let i = 0; i < values.length; i++) {
      const [d, b] = [Math.abs(values[i]! - target), Math.abs(values[best]! - target)];
      if (best < 0 || d < b || (d === b && values[i]! > values[best]!)) best = i;
    }
    if (best < 0 || (sel.tolerance !== undefined && Math.abs(values[best]! - target) > sel.tolerance))
      throw fail(`${text}: no value within tolerance=${sel.tolerance} (the nearest is ${values[best]})`);
    return best;
  }
  const start = values.indexOf(target);
  const stop = values.lastIndexOf(target) + 1;
  if (start < 0) throw fail(`${text}: no such value (the coordinate runs from ${values[0]} to ${values.at(-1)})`);
  if (values.slice(start, stop).some((v) => v !== target))
    throw fail(`${text}: the value is in cells that are not one run (use --isel)`);
  return stop - start === 1 ? start : [start, stop];
}

/** The period an ISO date names, as `[its start, the start of the next]` (`2020-01` is January; no zone is UTC). */
function period(text: string): [Date, Date] {
  const match =
    /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?(?:[T ](\d{2})(?::(\d{2})(?::(\d{2}(?:\.\d+)?))?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
      text,
    )!;
  const parts = [1, 2, 3, 4, 5, 6].map((i) => match[i]);
  const depth = parts.findLastIndex((p) => p !== undefined);
  const field = (i: number, fallback: number) => (parts[i] === undefined ? fallback : Number(parts[i]));
  const zone = match[7] === undefined || match[7] === "Z" ? 0 : zoneMinutes(match[7]);
  const at = (bump: number) =>
    new Date(
      Date.UTC(
        field(0, 0) + (depth === 0 ? bump : 0),
        field(1, 1) - 1 + (depth === 1 ? bump : 0),
        field(2, 1) + (depth === 2 ? bump : 0),
        field(3, 0) + (depth === 3 ? bump : 0),
        field(4, 0) + (depth === 4 ? bump : 0),
      ) +
        (field(5, 0) + (depth === 5 ? bump : 0)) * 1000 -
        zone * 60_000,
    );
  return [at(0), at(1)];
}

/** `+05:30` as minutes east of UTC. */
function zoneMinutes(zone: string): number {
  const digits = zone.replace(":", "");
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return zone.startsWith("-") ? -minutes : minutes;
}
