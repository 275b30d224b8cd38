/**
 * How the netCDF-4 writer lays out each HDF5 dataset: chunks, growable
 * (unlimited) dims and filters, from the write options or the variable's
 * storage attributes (README, "Storage attributes").
 */
import type { NdArray } from "@lance-nd/nd-arrow";
import { CHUNK_SIZES_ATTR, DEFLATE_LEVEL_ATTR, FILTER_ATTR } from "@lance-nd/cf";
import type { WriteCompression, WriteNetcdfOptions } from "./write-options.js";

/**
 * The layout of a dimension-only scale: its values are never read (netCDF
 * takes only its size), and netCDF-C leaves them unwritten, but h5wasm
 * writes the zeros it is given. Chunked (64 Ki values a chunk) and deflated,
 * they take about a thousandth of their size: GMT's `dcw-gmt.nc` has 18
 * million dim cells, 72 MB as contiguous float zeros. A growable dim also
 * gets an unlimited max shape; an empty fixed dim stays contiguous.
 */
export function dimensionOnlyLayout(
  size: number,
  growable: boolean,
): { maxshape?: null[]; chunks?: number[]; compression?: number; compression_opts?: number[] } {
  if (size === 0 && !growable) return {};
  const chunks = [Math.max(1, Math.min(size, growable ? 1024 : 65536))];
  return { ...(growable ? { maxshape: [null] } : {}), chunks, compression: DEFLATE, compression_opts: [1] };
}

/** Chunks, compression and growable dims of one dataset, from the options or the array's storage attributes. */
export function layoutOf(
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
