/**
 * lance-nd: N-dimensional datasets (netCDF / xarray model) in Lance tables.
 * See the package README.
 *
 * @example
 * import { col, isLanceNdError, open, scan, stat, write } from "lance-nd";
 * try {
 *   await write("data/arrays.lance", batches, { stats: true, casting: "safe" });
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
export { write, append, type NdRows } from "./write.js";
export { replaceRows } from "./replace-rows.js";
export { NdWriter } from "./writer.js";
export { RollbackIncompleteError, type LeftBehind } from "./rollback-error.js";
export type { WriteOptions, AppendOptions, WriteMode } from "./options.js";
export { widen } from "./widen.js";
export { indexGlobalAttr, keyIndexes, type KeyIndex } from "./key-index.js";
export { columnDefaults, setColumnDefaults } from "./column-defaults.js";
export type { CastingMode, ColumnOptions, Codec } from "@lance-nd/format";
export { scan, NdScan } from "./scan.js";
export { col, stat, Expr, Column, type Literal } from "./expr.js";
export { variables, type VariableInfo } from "./variables.js";
export { dataset, Dataset, type DatasetOptions } from "./dataset/dataset.js";
export type { DatasetVariable } from "./dataset/plan.js";
export type { DatasetBlock } from "./dataset/read.js";
export type { IselSpec, SelSpec, SelValue, SelOptions } from "./dataset/selection.js";
export {
  check,
  type CheckOptions,
  type CheckReport,
  type CheckRepair,
  type VersionHealth,
  type FragmentHealth,
  type UnreadableRow,
} from "./check.js";
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
export {
  tags,
  tag,
  untag,
  branches,
  branch,
  deleteBranch,
  type TagInfo,
  type BranchInfo,
  type BranchOptions,
} from "./version-control.js";
