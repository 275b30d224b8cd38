/**
 * @lance-nd/zarr: Zarr v2 and v3 stores as nd-arrow batches. `openZarr`
 * reads a local store lazily (zarrita underneath, sharded arrays included);
 * `writeZarr` writes one.
 *
 * @example
 * import { openZarr } from "@lance-nd/zarr";
 *
 * const store = await openZarr("sst.zarr");
 * store.variables.map((v) => v.name);          // ["lat", "lon", "sst", "time"]
 * const sst = await store.read("sst", { time: [0, 2] });
 * for await (const row of store.chunks()) row.globalAttr("chunk_offset");
 */
export { ZarrError, isZarrError } from "./zarr-error.js";
export type { ZarrErrorCode, ZarrErrorContext } from "./zarr-error.js";
export { openZarr, ZarrStore } from "./open-zarr.js";
export type { OpenZarrOptions, ZarrWindow } from "./open-zarr.js";
export type { ZarrVariable } from "./zarr-variable.js";
export type { RowSteps } from "./row-grid.js";
export { writeZarr } from "./write-zarr.js";
export type { WriteZarrOptions, WriteZarrResult } from "./write-zarr.js";
export type { CfOption } from "./cf.js";
