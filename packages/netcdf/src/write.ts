/**
 * One NdRecordBatch to a netCDF-4 file (HDF5 with netCDF-4's dimension
 * scale conventions), readable by ncdump, xarray and netCDF-C.
 */
import { DateUnit, Precision, Type } from "apache-arrow";
import type { DataType, Date_, Float, Timestamp, Vector } from "apache-arrow";
import type { Dataset } from "h5wasm";
import type { Attrs, NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { DIMENSION_ONLY_NAME } from "./hdf5-file.js";
import { NetcdfError } from "./netcdf-error.js";
import {
  CHAR_DIM_ATTR,
  CHAR_DIM_SIZE_ATTR,
  CHUNK_SIZES_ATTR,
  DEFLATE_LEVEL_ATTR,
  DIM_ORDER_ATTR,
  FILTER_ATTR,
  STORAGE_ATTRS,
  UNLIMITED_ATTR,
} from "./storage-attrs.js";
import { hdf5ErrorText, loadH5wasm } from "./h5wasm.js";
import type { NumericArray } from "./raw.js";

/** A file or dataset: what attributes are written to. */
type AttrTarget = Pick<Dataset, "create_attribute">;

/** What an Arrow type is stored as: a numeric typed array or strings. */
type Stored = { kind: "numeric"; data: NumericArray } | { kind: "strings"; data: string[] };

/** netCDF's default fill values, used for nulls of integer arrays without a `_FillValue`. */
const DEFAULT_FILL: Record<string, number | bigint> = {
  Int8Array: -127,
  Uint8Array: 255,
  Int16Array: -32767,
  Uint16Array: 65535,
  Int32Array: -2147483647,
  Uint32Array: 4294967295,
  BigInt64Array: -9223372036854775806n,
  BigUint64Array: 18446744073709551614n,
};

/** Compression of the variables a writer writes. */
export interface WriteCompression {
  /** `deflate` (zlib, built into HDF5), `zstd` (HDF5 filter 32015, from h5wasm-plugins) or `none`. */
  codec: "deflate" | "zstd" | "none";
  /** zlib level 1..9 (default 4), zstd level 1..22 (default 3). */
  level?: number;
}

/** Options of {@link writeNetcdf}. */
export interface WriteNetcdfOptions {
  /** Compression of every variable; default: each variable's `_DeflateLevel` or zstd / bzip2 `_Filter` (as read), else none. */
  compression?: WriteCompression;
  /** Chunk size per dim for every variable; default: each variable's `_ChunkSizes`, else contiguous. */
  chunks?: Readonly<Record<string, number>>;
  /** The unlimited dims; default: the global `_Unlimited` (as read), else none. */
  unlimited?: readonly string[];
}

/**
 * Writes `batch` to a new netCDF-4 file at `path` (replacing it). Each grid
 * dim becomes a netCDF dimension: the 1-D array named like the dim is its
 * coordinate variable, other dims get a dimension-only scale. Every array
 * becomes a variable with its dims and attributes; global attributes become
 * file attributes. Types: integers and floats as themselves (Float16 as
 * float), Bool as byte 0/1, Utf8 as NC_STRING, or as a char array when it has
 * `_CharDim` / `_CharDimSize` (README, "Storage attributes"); Timestamp/Date
 * as int64/int with CF `units` ("milliseconds since 1970-01-01 00:00:00"
 * ...) unless the array has `units`. String attributes are char attributes,
 * lists of strings NC_STRING. Nulls are written as the `_FillValue` (added
 * when missing: NaN for floats, netCDF's default fill for integers).
 * Storage attributes choose chunking, compression and unlimited dims unless
 * `options` say otherwise, and are not written.
 *
 * Throws a `NetcdfError`: `UnsupportedType` for a type netCDF cannot hold
 * (Binary, Time, Duration), naming the array; `InvalidArgument` for an
 * option naming a dim the batch does not have or a level out of range;
 * `WriteFailed` when HDF5 fails.
 *
 * @example
 * await writeNetcdf("out.nc", batch, { compression: { codec: "deflate", level: 4 }, chunks: { time: 1 } });
 */
export async function writeNetcdf(path: string, batch: NdRecordBatch, options: WriteNetcdfOptions = {}): Promise<void> {
  const grid = batch.grid();
  for (const dim of [...Object.keys(options.chunks ?? {}), ...(options.unlimited ?? [])]) {
    if (!grid.some((d) => d.name === dim)) {
      throw new NetcdfError(
        "InvalidArgument",
        `${path}: no dim "${dim}" to chunk or make unlimited (the dims are ${grid.map((d) => d.name).join(", ")})`,
        { path },
      );
    }
  }
  const { codec, level } = options.compression ?? {};
  const most = codec === "zstd" ? 22 : 9;
  if (level !== undefined && (codec === "none" || !Number.isInteger(level) || level < 1 || level > most)) {
    throw new NetcdfError("InvalidArgument", `${path}: ${codec} level ${level} is not an integer 1..${most}`, {
      path,
    });
  }
  const stored = new Map(batch.arrays().map(([name, array]) => [name, storedValues(name, array)] as const));
  const unlimited = new Set(options.unlimited ?? unlimitedOf(batch));
  const { h5 } = await loadH5wasm();
  let file: InstanceType<typeof h5.File>;
  try {
    file = new h5.File(path, "w", { track_order: true });
  } catch (cause) {
    throw new NetcdfError("WriteFailed", `${path}: cannot create the file (${hdf5ErrorText(cause)})`, { path, cause });
  }
  let current = "";
  try {
    const dims: { name: string; size: number }[] = [...grid];
    for (const [, array] of batch.arrays()) {
      const charDim = charDimOf(array);
      if (charDim !== undefined && !dims.some((d) => d.name === charDim.name)) dims.push(charDim);
    }
    inSourceOrder(dims, batch);
    const coordinates = new Set(
      grid
        .filter(
          (d) =>
            batch.get(d.name)?.dims.length === 1 &&
            batch.get(d.name)?.dims[0]?.name === d.name &&
            charDimOf(batch.get(d.name)!) === undefined,
        )
        .map((d) => d.name),
    );
    const dimsOf = new Map<string, string[]>();
    for (const [name, array] of batch.arrays()) {
      current = name;
      const values = stored.get(name)!;
      const charDim = values.kind === "strings" ? charDimOf(array) : undefined;
      const shape = charDim === undefined ? array.shape : [...array.shape, charDim.size];
      const names = charDim === undefined ? array.dimNames : [...array.dimNames, charDim.name];
      dimsOf.set(name, names);
      const data = charDim === undefined ? values.data : charCells(values.data as string[], charDim.size);
      const dtype = values.kind === "strings" ? (charDim === undefined ? "S" : "S1") : undefined;
      const layout = layoutOf(
        array,
        names,
        shape,
        options,
        unlimited,
        values.kind === "strings" && charDim === undefined,
      );
      const dataset = file.create_dataset({
        name,
        data,
        shape,
        track_order: true,
        ...(dtype === undefined ? {} : { dtype }),
        ...layout,
      });
      writeAttrs(dataset, variableAttrs(array, values));
    }
    current = "";
    dims.forEach((dim, index) => {
      const growable = unlimited.has(dim.name);
      const scale = coordinates.has(dim.name)
        ? file.get(dim.name)
        : file.create_dataset({
            name: dim.name,
            data: new Float32Array(dim.size),
            shape: [dim.size],
            ...(growable ? { maxshape: [null], chunks: [Math.max(1, Math.min(dim.size, 1024))] } : {}),
          });
      if (scale === null || !("make_scale" in scale)) throw new Error(`no dataset for dim "${dim.name}"`);
      scale.make_scale(coordinates.has(dim.name) ? dim.name : `${DIMENSION_ONLY_NAME}${String(dim.size).padStart(10)}`);
      // netCDF-4 numbers the dims with this attribute: the order of `dims` (the source's, see inSourceOrder).
      scale.create_attribute("_Netcdf4Dimid", new Int32Array([index]), [], "<i");
    });
    for (const [name] of batch.arrays()) {
      current = name;
      const dataset = file.get(name);
      if (dataset === null || !("attach_scale" in dataset)) continue;
      dimsOf.get(name)!.forEach((dim, axis) => {
        if (!(coordinates.has(name) && dim === name)) dataset.attach_scale(axis, `/${dim}`);
      });
    }
    current = "";
    writeAttrs(file, attrValues(batch.globalAttrs));
  } catch (cause) {
    if (cause instanceof NetcdfError) throw cause;
    const where = current === "" ? "" : ` variable "${current}":`;
    throw new NetcdfError("WriteFailed", `${path}:${where} cannot write (${hdf5ErrorText(cause)})`, {
      path,
      variable: current || undefined,
      cause,
    });
  } finally {
    file.close();
  }
}

/** The unlimited dims a batch read by this package records in its global `_Unlimited`. */
/**
 * Sorts `dims` into the order of the global `_DimOrder` (the source file's
 * order, as read); dims it does not name keep their grid order after those
 * it names.
 */
function inSourceOrder(dims: { name: string }[], batch: NdRecordBatch): void {
  const recorded = batch.globalAttrs.get(DIM_ORDER_ATTR)?.toJS();
  if (!Array.isArray(recorded)) return;
  const rank = new Map(recorded.map((name, i) => [String(name), i]));
  const at = new Map(dims.map((d, i) => [d.name, i]));
  const key = (name: string): number => rank.get(name) ?? recorded.length + at.get(name)!;
  dims.sort((a, b) => key(a.name) - key(b.name));
}

function unlimitedOf(batch: NdRecordBatch): string[] {
  const value = batch.globalAttrs.get(UNLIMITED_ATTR)?.toJS();
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.map(String) : [];
}

/** The char dim of a string array read from a char variable (its `_CharDim` / `_CharDimSize`). */
function charDimOf(array: NdArray): { name: string; size: number } | undefined {
  const name = array.attr(CHAR_DIM_ATTR);
  const size = array.attr(CHAR_DIM_SIZE_ATTR);
  if (typeof name !== "string" || typeof size !== "number") return undefined;
  if (array.type.typeId !== Type.Utf8 && array.type.typeId !== Type.LargeUtf8) return undefined;
  return { name, size };
}

/** Strings cut into `width` one-byte cells, NUL-padded (netCDF char rows). */
function charCells(strings: readonly string[], width: number): string[] {
  const out: string[] = [];
  for (const s of strings) {
    for (let i = 0; i < width; i++) out.push(i < s.length ? s[i]! : "");
  }
  return out;
}

/** Chunks, compression and growable dims of one dataset, from the options or the array's storage attributes. */
function layoutOf(
  array: NdArray,
  names: readonly string[],
  shape: readonly number[],
  options: WriteNetcdfOptions,
  unlimited: ReadonlySet<string>,
  vlen: boolean,
): { chunks?: number[]; maxshape?: (number | null)[]; compression?: number; compression_opts?: number[] } {
  if (shape.length === 0) return {};
  const recorded = array.attr(CHUNK_SIZES_ATTR);
  let chunks: number[] | undefined;
  if (options.chunks !== undefined)
    chunks = names.map((d, i) => Math.max(1, Math.min(options.chunks![d] ?? shape[i]!, shape[i]! || 1)));
  else if (Array.isArray(recorded) && recorded.length === shape.length) chunks = recorded.map(Number);
  else if (typeof recorded === "number" && shape.length === 1) chunks = [recorded];
  const growable = names.map((d) => unlimited.has(d));
  const filter = vlen ? undefined : filterOf(array, options.compression);
  if ((filter !== undefined || growable.some(Boolean)) && chunks === undefined)
    chunks = shape.map((s, i) => (growable[i] ? Math.max(1, Math.min(s, 1024)) : Math.max(1, s)));
  return {
    ...(chunks === undefined ? {} : { chunks }),
    ...(growable.some(Boolean) ? { maxshape: shape.map((s, i) => (growable[i] ? null : s)) } : {}),
    ...(filter === undefined ? {} : { compression: filter.id, compression_opts: [filter.level] }),
  };
}

/** HDF5 filter ids this writer sets: deflate is built in, zstd and bzip2 come from h5wasm-plugins. */
const DEFLATE = 1;
const ZSTD = 32015;
const BZIP2 = 307;

/**
 * The HDF5 filter of one variable: the option, else the storage attributes
 * (`_DeflateLevel`, or a `_Filter` of zstd or bzip2 as read); `undefined` for
 * none. Another recorded `_Filter` (blosc, lz4, ...) is not written.
 */
function filterOf(
  array: NdArray,
  compression: WriteCompression | undefined,
): { id: number; level: number } | undefined {
  if (compression !== undefined) {
    if (compression.codec === "none") return undefined;
    return compression.codec === "zstd"
      ? { id: ZSTD, level: compression.level ?? 3 }
      : { id: DEFLATE, level: compression.level ?? 4 };
  }
  const deflate = array.attr(DEFLATE_LEVEL_ATTR);
  if (typeof deflate === "number") return { id: DEFLATE, level: deflate };
  const recorded = array.attr(FILTER_ATTR);
  const [id, level] = typeof recorded === "string" ? recorded.split(",").map(Number) : [];
  return (id === ZSTD || id === BZIP2) && Number.isInteger(level) ? { id, level: level! } : undefined;
}

/** The values of an array as netCDF stores them; nulls become the fill value. */
function storedValues(name: string, array: NdArray): Stored {
  const { values } = array;
  const type = values.type;
  if (type.typeId === Type.Utf8 || type.typeId === Type.LargeUtf8) {
    return { kind: "strings", data: Array.from(values as Iterable<string | null>, (s) => s ?? "") };
  }
  let data: NumericArray;
  switch (type.typeId) {
    case Type.Int:
    case Type.Float:
    case Type.Timestamp:
    case Type.Date:
      data = isFloat16(type) ? Float32Array.from(values as Iterable<number>) : contiguous(values);
      break;
    case Type.Bool:
      data = Int8Array.from(values as Iterable<boolean | null>, (b) => (b ? 1 : 0));
      break;
    default:
      throw new NetcdfError("UnsupportedType", `array "${name}" has type ${String(type)}, which netCDF cannot hold`, {
        variable: name,
      });
  }
  if (values.nullCount > 0) {
    data = data.slice() as NumericArray;
    const fill = fillValue(array, data);
    for (let i = 0; i < values.length; i++) if (!values.isValid(i)) data[i] = fill as never;
  }
  return { kind: "numeric", data };
}

/** The values as one typed array: a view when the vector has one chunk. */
function contiguous(values: Vector): NumericArray {
  const [only, ...rest] = values.data;
  if (only !== undefined && rest.length === 0) return only.values as NumericArray;
  return values.toArray() as NumericArray;
}

function isFloat16(type: DataType): boolean {
  return type.typeId === Type.Float && (type as Float).precision === Precision.HALF;
}

/** The fill value of an array: its `_FillValue`, else NaN for floats, else netCDF's default. */
function fillValue(array: NdArray, data: NumericArray): number | bigint {
  const own = array.attrs.get("_FillValue");
  if (own !== undefined && !own.isList) return own.value.get(0) as number | bigint;
  return DEFAULT_FILL[data.constructor.name] ?? Number.NaN;
}

/** An attribute as written: numbers, a char attribute (string) or an NC_STRING list. */
type AttrValue = NumericArray | string | string[];

/** The attributes to write: the array's, a `_FillValue` when nulls were filled, CF units of times. */
function variableAttrs(array: NdArray, stored: Stored): Map<string, AttrValue> {
  const attrs = attrValues(array.attrs);
  if (stored.kind === "numeric" && array.values.nullCount > 0 && !attrs.has("_FillValue")) {
    const Typed = stored.data.constructor as unknown as { of(v: number | bigint): NumericArray };
    attrs.set("_FillValue", Typed.of(fillValue(array, stored.data)));
  }
  const units = timeUnits(array.type);
  if (units !== undefined && !attrs.has("units")) attrs.set("units", units);
  return attrs;
}

/** CF unit names by Arrow TimeUnit (SECOND, MILLISECOND, MICROSECOND, NANOSECOND). */
const UNIT_NAMES = ["seconds", "milliseconds", "microseconds", "nanoseconds"];

/** CF units of a Timestamp or Date array (raw values since the Unix epoch). */
function timeUnits(type: DataType): string | undefined {
  if (type.typeId === Type.Timestamp) {
    return `${UNIT_NAMES[(type as Timestamp).unit]} since 1970-01-01 00:00:00`;
  }
  if (type.typeId === Type.Date) {
    return `${(type as Date_).unit === DateUnit.DAY ? "days" : "milliseconds"} since 1970-01-01`;
  }
  return undefined;
}

/** nd-arrow attributes as netCDF ones: Bool as byte, Float16 as float, temporal as raw integers. */
function attrValues(attrs: Attrs): Map<string, AttrValue> {
  const out = new Map<string, AttrValue>();
  for (const [key, attr] of attrs) {
    if (STORAGE_ATTRS.has(key)) continue;
    const item = attr.itemType;
    if (item.typeId === Type.Utf8 || item.typeId === Type.LargeUtf8) {
      const strings = Array.from(attr.value as Iterable<string | null>, (s) => s ?? "");
      out.set(key, attr.isList ? strings : (strings[0] ?? ""));
    } else if (item.typeId === Type.Bool) {
      out.set(
        key,
        Int8Array.from(attr.value as Iterable<boolean | null>, (b) => (b ? 1 : 0)),
      );
    } else {
      out.set(key, isFloat16(item) ? Float32Array.from(attr.value as Iterable<number>) : contiguous(attr.value));
    }
  }
  return out;
}

/** Writes attributes: text as a char attribute (fixed-length string), lists of text as NC_STRING. */
function writeAttrs(target: AttrTarget, attrs: ReadonlyMap<string, AttrValue>): void {
  for (const [key, value] of attrs) {
    if (typeof value === "string") {
      const bytes = new TextEncoder().encode(value).length;
      target.create_attribute(key, value, null, `S${Math.max(bytes, 1)}`);
    } else if (Array.isArray(value)) {
      target.create_attribute(key, value, [value.length], "S");
    } else {
      target.create_attribute(key, value, [value.length]);
    }
  }
}
