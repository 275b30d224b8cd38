/**
 * @lance-nd/zarr: Zarr v2 and v3 stores as nd-arrow batches. `openZarr`
 * reads a store lazily (a local directory, an `http(s)://` URL or any zarrita store) (zarrita underneath, sharded arrays included),
 * values as stored (the reader contract shared with `@lance-nd/netcdf` and
 * lance-nd's datasets: nd-arrow README "Windows"); `writeZarr` writes one.
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
export { openZarr } from "./open-zarr.js";
export type { OpenZarrOptions, ZarrSource, ZarrStore } from "./open-zarr.js";
export type { ZarrStoreReader } from "./store-reader.js";
export { storeFetch } from "./remote-requests.js";
export type { RequestOptions } from "./remote-requests.js";
export { zarrGroups } from "./store-groups.js";
export type { Selection, Window } from "@lance-nd/nd-arrow";
export type { ZarrVariable } from "./zarr-variable.js";
export type { RowSteps } from "./row-grid.js";
export { writeZarr } from "./write-zarr.js";
export type { WriteZarrOptions, WriteZarrResult } from "./write-zarr.js";
export type { CfOption } from "./cf.js";
