/**
 * @lance-nd/netcdf: netCDF-3 and netCDF-4 files as nd-arrow arrays. Files
 * open lazily: the header first, then values per variable and window
 * (hyperslabs through h5wasm for netCDF-4, byte ranges for netCDF-3), or the
 * whole file as rows one at a time. Values are stored values; the CF
 * conventions are `@lance-nd/cf`'s job (the reader contract shared with
 * `@lance-nd/zarr` and lance-nd's datasets: nd-arrow README "Windows").
 *
 * @example
 * import { openNetcdf, readNetcdf, writeNetcdf } from "@lance-nd/netcdf";
 *
 * const file = await openNetcdf("sst.nc");               // file.dims, file.variables, file.globalAttrs
 * const sst = await file.read("sst", { time: [0, 4] });  // only that hyperslab; { time: 0 } drops the dim
 * for await (const row of file.chunks({ time: 4 })) { }  // NdRecordBatch rows with chunk_offset
 * await file.close();
 * await writeNetcdf("copy.nc", await readNetcdf("sst.nc"));
 */
export { NetcdfError, isNetcdfError } from "./netcdf-error.js";
export type { NetcdfErrorCode, NetcdfErrorContext } from "./netcdf-error.js";
export { openNetcdf } from "./open.js";
export { selectNetcdf } from "./selected-file.js";
export { netcdfRowPlan } from "./row-plan.js";
export type { FileRegion } from "./selected-file.js";
export { openUrlSource } from "./url-source.js";
export type { UrlSourceOptions } from "./url-source.js";
export type { ByteSource } from "./source.js";
export type { NetcdfChunksOptions, NetcdfFile, NetcdfVariable, OpenNetcdfOptions } from "./open.js";
export type { Selection, Window } from "@lance-nd/nd-arrow";
export { readNetcdf } from "./read.js";
export type { ReadNetcdfOptions } from "./read.js";
export { writeNetcdf, writeNetcdfGroups } from "./write.js";
export type { WriteCompression, WriteNetcdfOptions } from "./write-options.js";
export { detectFormat } from "./format.js";
export type { NetcdfFormat } from "./format.js";
export type { NcType, NetcdfCompression, NetcdfDim } from "./raw.js";
export { ncDtype } from "./nc-dtype.js";
// The storage attributes (README, "Storage attributes"): the one list lives in @lance-nd/cf,
// shared with the Zarr export and lance-nd's Zarr store.
export {
  CHAR_DIM_ATTR,
  CHAR_DIM_SIZE_ATTR,
  CHUNK_SIZES_ATTR,
  DEFLATE_LEVEL_ATTR,
  DIM_ORDER_ATTR,
  VARIABLE_ORDER_ATTR,
  FILTER_ATTR,
  FORMAT_ATTR,
  SHUFFLE_ATTR,
  STORAGE_ATTRS,
  STRING_ATTRS_ATTR,
  UNLIMITED_ATTR,
  UNUSED_DIMS_ATTR,
  UNUSED_DIM_SIZES_ATTR,
} from "@lance-nd/cf";
