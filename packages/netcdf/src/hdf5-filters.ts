/**
 * The HDF5 filters of a netCDF-4 variable: its compression as
 * `NetcdfCompression` says it, and the filters a read found missing (README,
 * "HDF5 filters").
 */
import type { H5Module } from "./h5wasm.js";
import type { NetcdfCompression } from "./raw.js";

/** HDF5 filter ids by the codec names of `NetcdfCompression`. */
export const FILTERS: Readonly<Record<number, string>> = {
  1: "deflate",
  4: "szip",
  32001: "blosc",
  32004: "lz4",
  32015: "zstd",
  307: "bzip2",
};
const SHUFFLE = 2;
const FLETCHER32 = 3;
/** The filters built into h5wasm's HDF5 (deflate, shuffle, fletcher32, szip, nbit, scaleoffset); others are plugins. */
const BUILT_IN_FILTERS = new Set([1, 2, 3, 4, 5, 6]);

/** The compression of a chunked dataset with `filters` (HDF5 order); `null` when none. */
export function compressionOf(filters: { id: number; cd_values: number[] }[]): NetcdfCompression | null {
  const shuffle = filters.some((f) => f.id === SHUFFLE);
  const codec = filters.find((f) => f.id !== SHUFFLE && f.id !== FLETCHER32);
  if (codec === undefined) return shuffle ? { codec: "none", shuffle } : null;
  const name = FILTERS[codec.id] ?? `filter-${codec.id}`;
  const level = codec.id === 1 || codec.id === 32015 || codec.id === 307 ? codec.cd_values[0] : undefined;
  return level === undefined ? { codec: name, shuffle } : { codec: name, level, shuffle };
}

/**
 * The filters of a dataset that HDF5 could not load (`id (name)`), when
 * `cause` is HDF5's "required filter ... is not registered"; else none.
 */
export function missingFilters(module: H5Module, fid: bigint, path: string, cause: unknown): string[] {
  if (!String(cause instanceof Error ? cause.message : cause).includes("is not registered")) return [];
  return module
    .get_dataset_filters(fid, path)
    .filter((f) => !BUILT_IN_FILTERS.has(f.id))
    .map((f) => `${f.id}${FILTERS[f.id] === undefined ? "" : ` (${FILTERS[f.id]})`}`);
}
