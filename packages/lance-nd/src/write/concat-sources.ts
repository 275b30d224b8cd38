/**
 * Many files as one dataset along a dim, as xarray's
 * `open_mfdataset(files, combine="by_coords")` combines them (README,
 * "Many files, one dataset"): the sources are ordered by the first value of
 * the dim's coordinate, must not overlap, and must agree on every other dim
 * and coordinate; each source keeps its own rows, placed along the dim by
 * `chunk_offset` after the sources before it, and named by the
 * {@link SOURCE_FILE_ATTR} global attribute.
 */
import { basename } from "node:path";
import { DataType } from "apache-arrow";
import { CHUNK_OFFSET, attr } from "@lance-nd/nd-arrow";
import type { Dim, NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { sameCfTimeEncoding } from "@lance-nd/cf";
import { LanceNdError } from "../errors.js";

/** Global: the file (base name) a row of a concatenated dataset came from. */
export const SOURCE_FILE_ATTR = "_SourceFile";

/**
 * One input of {@link planConcat}: a `NetcdfFile` (@lance-nd/netcdf's
 * `openNetcdf`), a `ZarrStore` (@lance-nd/zarr's `openZarr`), or anything
 * with their `path`, `variables` and `read`.
 */
export interface ConcatSource {
  /** Where it was read from; its base name names its rows. */
  readonly path: string;
  /** Its variables with their dims. */
  readonly variables: readonly { readonly name: string; readonly dims: readonly Dim[] }[];
  /** One variable's values (the coordinates are read). */
  read(name: string): Promise<NdArray>;
}

/** A source placed along the concatenation dim. */
export interface ConcatPart<S extends ConcatSource = ConcatSource> {
  readonly source: S;
  /** The base name of its path: the {@link SOURCE_FILE_ATTR} of its rows. */
  readonly name: string;
  /** Its first index along the dim in the whole dataset. */
  readonly start: number;
  /** Its size along the dim. */
  readonly size: number;
  /** Its first and last coordinate values (timestamps as milliseconds). */
  readonly first: number;
  readonly last: number;
}

/**
 * `sources` ordered by the first value of `dim`'s coordinate (the 1-D
 * variable named `dim`), each with its start along `dim`: after the sources
 * before it, or after `after` (an append: the dataset so far, e.g. a
 * lance-nd `Dataset` given as a source, whose coordinates the sources must
 * agree with). Gaps between sources are not checked (as xarray).
 *
 * @throws LanceNdError `InvalidInput` naming the source when one lacks the
 * dim or its coordinate, its coordinate is not strictly increasing, two
 * sources overlap (or one starts at or before `after` ends), or a source
 * differs from the first one (or `after`) in another dim's size, a coordinate's values,
 * or the `units` / `calendar` of `dim`'s coordinate.
 *
 * @example
 * const files = await Promise.all(["tas_2001.nc", "tas_2000.nc"].map((f) => openNetcdf(f)));
 * const parts = await planConcat(files, "time"); // tas_2000.nc first, start 0; tas_2001.nc at its size
 * await write(uri, concatRows(parts, "time", (file) => file.chunks({})));
 */
export async function planConcat<S extends ConcatSource>(
  sources: readonly S[],
  dim: string,
  after?: ConcatSource,
): Promise<ConcatPart<S>[]> {
  if (sources.length === 0) throw invalid(`no sources to concatenate along "${dim}"`);
  const read = await Promise.all(sources.map((source) => readCoordinates(source, dim)));
  const existing = after === undefined ? undefined : await readCoordinates(after, dim);
  if (existing !== undefined) checkAgrees(read[0]!, existing, dim);
  const reference = read[0]!;
  for (const [i, coords] of read.entries()) if (i > 0) checkAgrees(coords, reference, dim);
  const order = read.map((coords, i) => ({ coords, source: sources[i]! }));
  order.sort((a, b) => compareValues(a.coords.first, b.coords.first));
  const parts: ConcatPart<S>[] = [];
  let start = existing?.values.length ?? 0;
  let previous: { name: string; last: CoordinateValue } | undefined =
    existing === undefined ? undefined : { name: existing.path, last: existing.last };
  for (const { coords, source } of order) {
    if (previous !== undefined && coords.first <= previous.last) {
      throw invalid(
        `${source.path} overlaps ${previous.name}: its "${dim}" starts at ${coords.show(coords.first)}, at or before ${coords.show(previous.last)} where ${previous.name} ends`,
      );
    }
    const size = coords.values.length;
    parts.push({
      source,
      name: basename(source.path),
      start,
      size,
      first: Number(coords.first),
      last: Number(coords.last),
    });
    start += size;
    previous = { name: source.path, last: coords.last };
  }
  return parts;
}

/**
 * The rows of `parts` in order (`rowsOf` gives a source's rows, e.g.
 * `file.chunks(sizes)`), each placed along `dim`: its `chunk_offset` (zeros
 * when it has none) moved by its part's start, and {@link SOURCE_FILE_ATTR}
 * set to the part's name.
 */
export async function* concatRows<S extends ConcatSource>(
  parts: readonly ConcatPart<S>[],
  dim: string,
  rowsOf: (source: S) => AsyncIterable<NdRecordBatch>,
): AsyncGenerator<NdRecordBatch> {
  for (const part of parts) {
    for await (const row of rowsOf(part.source)) yield placeRow(row, dim, part);
  }
}

/** `row` moved by `part.start` along `dim`, named by the part. */
function placeRow(row: NdRecordBatch, dim: string, part: ConcatPart): NdRecordBatch {
  const grid = row.grid().map((d) => d.name);
  const at = grid.indexOf(dim);
  if (at < 0) throw invalid(`${part.source.path}: a row has no dim "${dim}" (its dims: ${grid.join(", ")})`);
  const offset = row.globalAttrs.get(CHUNK_OFFSET);
  const starts = offset === undefined ? grid.map(() => 0) : Array.from(offset.value as Iterable<number>, Number);
  starts[at] = starts[at]! + part.start;
  const globals = new Map(row.globalAttrs);
  globals.delete(CHUNK_OFFSET);
  globals.set(SOURCE_FILE_ATTR, attr.utf8(part.name));
  globals.set(CHUNK_OFFSET, attr.uint32(Uint32Array.from(starts)));
  return row.withGlobalAttrs(globals);
}

/**
 * A value of the concatenation coordinate: a number, or a bigint for a
 * 64-bit integer coordinate, compared and shown exactly (`<` and `>`
 * compare a bigint with a number exactly).
 */
type CoordinateValue = number | bigint;

/** What a source is compared by: its concatenation coordinate, other dims and coordinates. */
interface SourceCoordinates {
  readonly path: string;
  readonly values: CoordinateValue[];
  readonly first: CoordinateValue;
  readonly last: CoordinateValue;
  readonly attrs: { units: unknown; calendar: unknown };
  readonly dims: Map<string, number>;
  readonly others: Map<string, NdArray>;
  show(value: CoordinateValue): string;
}

async function readCoordinates(source: ConcatSource, dim: string): Promise<SourceCoordinates> {
  const dims = new Map<string, number>();
  for (const v of source.variables) for (const d of v.dims) dims.set(d.name, d.size);
  if (!dims.has(dim)) {
    throw invalid(`${source.path} has no dim "${dim}" to concatenate along (its dims: ${[...dims.keys()].join(", ")})`);
  }
  const isCoordinate = (v: ConcatSource["variables"][number]) => v.dims.length === 1 && v.dims[0]!.name === v.name;
  if (!source.variables.some((v) => v.name === dim && isCoordinate(v))) {
    throw invalid(`${source.path} has no coordinate variable "${dim}" to order the files by`);
  }
  const coordinate = await source.read(dim);
  const timestamp = DataType.isTimestamp(coordinate.type) || DataType.isDate(coordinate.type);
  const show = (value: CoordinateValue) =>
    timestamp ? new Date(Number(value)).toISOString().replace(".000Z", "Z") : String(value);
  const values: CoordinateValue[] = [];
  for (let i = 0; i < coordinate.values.length; i++) {
    const value = coordinate.values.get(i) as CoordinateValue | null;
    if (value === null || (typeof value === "number" && Number.isNaN(value))) {
      throw invalid(
        `${source.path}: "${dim}" has no value at index ${i} (masked or NaN); files are ordered and checked for overlaps by every value of it`,
      );
    }
    values.push(timestamp ? Number(value) : value);
  }
  if (values.length === 0) throw invalid(`${source.path}: "${dim}" is empty`);
  for (let i = 1; i < values.length; i++) {
    if (!(values[i]! > values[i - 1]!)) {
      throw invalid(
        `${source.path}: "${dim}" is not increasing (${show(values[i - 1]!)} then ${show(values[i]!)} at index ${i}); files are concatenated along increasing coordinates`,
      );
    }
  }
  const others = new Map<string, NdArray>();
  for (const v of source.variables)
    if (v.name !== dim && isCoordinate(v)) others.set(v.name, await source.read(v.name));
  dims.delete(dim);
  return {
    path: source.path,
    values,
    first: values[0]!,
    last: values.at(-1)!,
    attrs: { units: coordinate.attr("units"), calendar: coordinate.attr("calendar") },
    dims,
    others,
    show,
  };
}

/** `InvalidInput` naming `coords`' source and the first way it differs from `reference`. */
function checkAgrees(coords: SourceCoordinates, reference: SourceCoordinates, dim: string): void {
  const differs = (what: string) => invalid(`${coords.path}: ${what} (the files must agree on all but "${dim}")`);
  const { units, calendar } = reference.attrs;
  // Spelled apart but equal to CF (`gregorian` and `standard`, `2000-1-1 00:00:00` and `2000-01-01`).
  const sameTimes = sameCfTimeEncoding(coords.attrs.units, coords.attrs.calendar, units, calendar);
  for (const key of sameTimes ? [] : (["units", "calendar"] as const)) {
    const [a, b] = [coords.attrs[key], reference.attrs[key]];
    if (String(a) !== String(b)) {
      throw invalid(
        `${coords.path}: "${dim}" has ${key} ${JSON.stringify(a ?? null)}, ${reference.path} has ${JSON.stringify(b ?? null)} (the values of "${dim}" compare only under one ${key})`,
      );
    }
  }
  for (const name of new Set([...coords.dims.keys(), ...reference.dims.keys()])) {
    const [a, b] = [coords.dims.get(name), reference.dims.get(name)];
    if (a !== b) {
      throw differs(
        `dim "${name}" has size ${a ?? "(absent)"}, ${b === undefined ? `absent from ${reference.path}` : `${b} in ${reference.path}`}`,
      );
    }
  }
  for (const [name, array] of reference.others) {
    const other = coords.others.get(name);
    if (other === undefined) throw differs(`coordinate "${name}" is missing (${reference.path} has it)`);
    const at = firstDifference(array, other);
    if (at !== undefined) {
      throw differs(
        `coordinate "${name}" differs from ${reference.path} at index ${at} (${String(other.values.get(at))} vs ${String(array.values.get(at))})`,
      );
    }
  }
}

/** The first index where two coordinates differ (values compared as numbers or strings), undefined when equal. */
function firstDifference(a: NdArray, b: NdArray): number | undefined {
  if (a.values.length !== b.values.length) return Math.min(a.values.length, b.values.length);
  for (let i = 0; i < a.values.length; i++) {
    const [x, y] = [a.values.get(i), b.values.get(i)];
    if (x !== y && !(typeof x === typeof y && Number.isNaN(x) && Number.isNaN(y))) return i;
  }
  return undefined;
}

/** The order of two coordinate values, exact for bigints. */
function compareValues(a: CoordinateValue, b: CoordinateValue): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function invalid(message: string): LanceNdError {
  return new LanceNdError("InvalidInput", `concat: ${message}`);
}
