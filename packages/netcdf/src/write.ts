/**
 * One NdRecordBatch to a netCDF-4 file (HDF5 with netCDF-4's dimension
 * scale conventions), readable by ncdump, xarray and netCDF-C.
 */
import type { Dataset } from "h5wasm";
import type { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { writeClassic } from "./classic-write.js";
import type { NetcdfFormat } from "./format.js";
import { DIMENSION_ONLY_NAME } from "./hdf5-file.js";
import { NetcdfError } from "./netcdf-error.js";
import { checkWriteOptions, refuseExisting } from "./write-options.js";
import { CHUNK_SIZES_ATTR, DEFLATE_LEVEL_ATTR, FILTER_ATTR, FORMAT_ATTR } from "@lance-nd/cf";
import { hdf5ErrorText, loadH5wasm } from "./h5wasm.js";
import { writeAttrs, writeChars } from "./hdf5-write.js";
import type { H5File } from "./hdf5-write.js";
import type { NumericArray } from "./raw.js";
import {
  attrValues,
  charBytes,
  charLayoutOf,
  fileDims,
  inFileOrder,
  storedValues,
  unlimitedOf,
  variableAttrs,
} from "./stored.js";

/** Compression of the variables a writer writes. */
export interface WriteCompression {
  /** `deflate` (zlib, built into HDF5), `zstd` (HDF5 filter 32015, from h5wasm-plugins) or `none`. */
  codec: "deflate" | "zstd" | "none";
  /** zlib level 1..9 (default 4), zstd level 1..22 (default 3). */
  level?: number;
}

/** Options of {@link writeNetcdf}. */
export interface WriteNetcdfOptions {
  /** `create` (default): refuse a path that exists; `overwrite`: replace it. */
  mode?: "create" | "overwrite";
  /** Compression of every variable; default: each variable's `_DeflateLevel` or zstd / bzip2 `_Filter` (as read), else none. */
  compression?: WriteCompression;
  /** Chunk size per dim for every variable; default: each variable's `_ChunkSizes`, else contiguous. */
  chunks?: Readonly<Record<string, number>>;
  /** The unlimited dims; default: the global `_Unlimited` (as read), else none. */
  unlimited?: readonly string[];
  /**
   * The file format: `netcdf4` (HDF5), `classic` (CDF-1) or `64bit-offset`
   * (CDF-2); default: the global `_Format` (the source's, as read), else
   * `netcdf4`. The classic formats have no compression or chunks, at most
   * one unlimited dim, and only byte, char, short, int, float and double.
   */
  format?: NetcdfFormat;
}

/**
 * Writes `dataset` to a new netCDF file at `path` (an existing one only with
 * `mode: "overwrite"`, replacing it): netCDF-4
 * unless `options.format` or the global `_Format` says `classic` or
 * `64bit-offset` (see `writeClassic` for those). Each grid
 * dim becomes a netCDF dimension: the 1-D array named like the dim is its
 * coordinate variable, other dims get a dimension-only scale. Every array
 * becomes a variable with its dims and attributes; global attributes become
 * file attributes. Types: integers and floats as themselves (Float16 as
 * float), Bool as byte 0/1, Utf8 as NC_STRING, or as a char array when it has
 * `_CharDim` / `_CharDimSize` (README, "Storage attributes"); Binary as a
 * char array, as xarray writes numpy `|S<n>` (README, "Conformance"); Timestamp/Date
 * as int64/int with CF `units` ("milliseconds since 1970-01-01 00:00:00"
 * ...) unless the array has `units`. String attributes are char attributes,
 * lists of strings NC_STRING. Nulls are written as the `_FillValue` (added
 * when missing: NaN for floats, netCDF's default fill for integers).
 * Storage attributes choose chunking, compression and unlimited dims unless
 * `options` say otherwise, and the order of the variables (`_VariableOrder`),
 * and are not written.
 *
 * Throws a `NetcdfError`: `UnsupportedType` for a type netCDF (or the
 * classic format) cannot hold, naming the array; `InvalidArgument` for an
 * existing path without `mode: "overwrite"`, options of the wrong shape, an
 * option naming a dim the dataset does not have, a level out of range,
 * compression or chunks for a classic format; `WriteFailed` when HDF5 or the
 * file system fails.
 *
 * @example
 * await writeNetcdf("out.nc", batch, { compression: { codec: "deflate", level: 4 }, chunks: { time: 1 } });
 */
export async function writeNetcdf(
  path: string,
  dataset: NdRecordBatch,
  options: WriteNetcdfOptions = {},
): Promise<void> {
  checkWriteOptions(path, options);
  const batch = inFileOrder(dataset);
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
  await refuseExisting(path, options.mode);
  const stored = new Map(batch.arrays().map(([name, array]) => [name, storedValues(name, array)] as const));
  const unlimited = new Set(options.unlimited ?? unlimitedOf(batch));
  const format = options.format ?? formatOf(batch);
  if (format !== "netcdf4") {
    if ((options.compression !== undefined && options.compression.codec !== "none") || options.chunks !== undefined) {
      throw new NetcdfError(
        "InvalidArgument",
        `${path}: a ${format} netCDF file has no compression or chunks (write format netcdf4 for them)`,
        { path },
      );
    }
    return writeClassic(path, batch, stored, { format, unlimited: [...unlimited] });
  }
  const { h5, module } = await loadH5wasm();
  let file: H5File;
  try {
    file = new h5.File(path, "w", { track_order: true });
  } catch (cause) {
    throw new NetcdfError("WriteFailed", `${path}: cannot create the file (${hdf5ErrorText(cause)})`, { path, cause });
  }
  let current = "";
  try {
    const dims = fileDims(batch);
    const dimsOf = new Map<string, readonly string[]>();
    for (const [name, array] of batch.arrays()) {
      current = name;
      const values = stored.get(name)!;
      const char = values.kind === "numeric" ? undefined : charLayoutOf(array);
      const shape = char?.shape ?? array.shape;
      const names = char?.names ?? array.dimNames;
      dimsOf.set(name, names);
      const layout = layoutOf(array, names, shape, options, unlimited, values.kind === "strings" && char === undefined);
      if (char === undefined) {
        const dtype = values.kind === "strings" ? { dtype: "S" } : {};
        // Binary always has a char layout: what is left is numbers and NC_STRING text.
        const data = values.data as NumericArray | string[];
        file.create_dataset({ name, data, shape: [...shape], track_order: true, ...dtype, ...layout });
      } else
        writeChars(module, file, name, charBytes(values.data as string[] | Uint8Array[], char.width), shape, layout);
      writeAttrs(module, file.get(name) as Dataset, variableAttrs(array, values));
    }
    // A variable whose only dim is its namesake is that dim's coordinate variable: the dim's scale.
    const isCoordinate = (dim: string): boolean => dimsOf.get(dim)?.length === 1 && dimsOf.get(dim)![0] === dim;
    const coordinates = new Set(dims.map((d) => d.name).filter(isCoordinate));
    current = "";
    dims.forEach((dim, index) => {
      const growable = unlimited.has(dim.name);
      const scale = coordinates.has(dim.name)
        ? file.get(dim.name)
        : file.create_dataset({
            name: dim.name,
            data: new Float32Array(dim.size),
            shape: [dim.size],
            ...dimensionOnlyLayout(dim.size, growable),
          });
      if (scale === null || !("make_scale" in scale)) throw new Error(`no dataset for dim "${dim.name}"`);
      scale.make_scale(coordinates.has(dim.name) ? dim.name : `${DIMENSION_ONLY_NAME}${String(dim.size).padStart(10)}`);
      // netCDF-4 numbers the dims with this attribute: the order of `dims` (the source's, see fileDims).
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
    writeAttrs(module, file, attrValues(batch.globalAttrs));
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

/** The format a batch read by this package records in its global `_Format`, else netCDF-4. */
function formatOf(batch: NdRecordBatch): NetcdfFormat {
  const recorded = batch.globalAttrs.get(FORMAT_ATTR)?.toJS();
  return recorded === "classic" || recorded === "64bit-offset" ? recorded : "netcdf4";
}

/**
 * The layout of a dimension-only scale: its values are never read (netCDF
 * takes only its size), and netCDF-C leaves them unwritten, but h5wasm
 * writes the zeros it is given. Chunked (64 Ki values a chunk) and deflated,
 * they take about a thousandth of their size: GMT's `dcw-gmt.nc` has 18
 * million dim cells, 72 MB as contiguous float zeros. A growable dim also
 * gets an unlimited max shape; an empty fixed dim stays contiguous.
 */
function dimensionOnlyLayout(
  size: number,
  growable: boolean,
): { maxshape?: null[]; chunks?: number[]; compression?: number; compression_opts?: number[] } {
  if (size === 0 && !growable) return {};
  const chunks = [Math.max(1, Math.min(size, growable ? 1024 : 65536))];
  return { ...(growable ? { maxshape: [null] } : {}), chunks, compression: DEFLATE, compression_opts: [1] };
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
  // Recorded chunks come from the whole source: a region of it has fixed dims smaller than them (HDF5 refuses those).
  chunks = chunks?.map((size, i) => (growable[i] ? Math.max(1, size) : Math.max(1, Math.min(size, shape[i]! || 1))));
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
 * (`_DeflateLevel` of 0-9, or a `_Filter` of zstd or bzip2 as read);
 * `undefined` for none. Another recorded `_Filter` (blosc, lz4, ...) or a
 * `_DeflateLevel` outside 0-9 (e.g. 99, which HDF5's deflate refuses with
 * "filter returned failure") is not written: the variable is stored without it.
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
  // netCDF-C records a deflate level of 0-9; another value (a file's own attribute of that name) is no filter.
  const deflate = array.attr(DEFLATE_LEVEL_ATTR);
  if (typeof deflate === "number" && Number.isInteger(deflate) && deflate >= 0 && deflate <= 9)
    return { id: DEFLATE, level: deflate };
  const recorded = array.attr(FILTER_ATTR);
  const [id, level] = typeof recorded === "string" ? recorded.split(",").map(Number) : [];
  return (id === ZSTD || id === BZIP2) && Number.isInteger(level) ? { id, level: level! } : undefined;
}
