/**
 * lance-nd: N-dimensional datasets (netCDF / xarray model) in Lance tables.
 * Work in progress: see the package README. So far this entry exports the
 * typed errors.
 *
 * @example
 * import { col, isLanceNdError, open, scan, stat } from "lance-nd";
 * try {
 *   const table = await open("data/arrays.lance");
 *   for await (const batch of scan(table).project(["sst"]).filterExpr(col("__global_attrs__.id").eq("a").and(stat("sst").max.gt(300)))) {
 *     console.log(batch.grid());
 *   }
 * } catch (err) {
 *   if (isLanceNdError(err, "TableNotFound")) console.error(err.uri);
 * }
 */
export { isLanceNdError, LanceNdError, type LanceNdErrorCode, type LanceNdErrorContext } from "./errors.js";
export { open, NdTable, type OpenOptions } from "./table.js";
export { scan, NdScan } from "./scan.js";
export { col, stat, Expr, Column, type Literal } from "./expr.js";
export { variables, type VariableInfo } from "./variables.js";
export {
  deleteRows,
  compact,
  cleanupOldVersions,
  versions,
  checkout,
  restore,
  type DeleteResult,
  type CompactOptions,
  type CompactResult,
  type CleanupOptions,
  type CleanupResult,
  type Version,
} from "./maintenance.js";
