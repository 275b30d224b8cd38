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
export type { StorageOptions } from "./lance/table-open.js";
export { write, append, type NdRows } from "./write/write.js";
export { replaceRows } from "./write/replace-rows.js";
export { NdWriter } from "./write/writer.js";
export {
  planConcat,
  concatRows,
  SOURCE_FILE_ATTR,
  type ConcatSource,
  type ConcatPart,
} from "./write/concat-sources.js";
export { RollbackIncompleteError, type LeftBehind } from "./lance/rollback-error.js";
export type { WriteOptions, AppendOptions, WriteMode } from "./write/write-options.js";
export { widen } from "./widen/widen.js";
export { indexGlobalAttr, keyIndexes, type KeyIndex } from "./read/key-index.js";
export { columnDefaults, setColumnDefaults } from "./write/column-defaults.js";
export type { CastingMode, ColumnOptions, Codec } from "@lance-nd/format";
export { scan, NdScan } from "./read/scan.js";
export { col, stat, Expr, Column, type Literal } from "./read/expr.js";
export { variables, type VariableInfo } from "./read/variables.js";
export { dataset, Dataset, type DatasetOptions } from "./dataset/dataset.js";
export { datasetSource } from "./dataset/dataset-source.js";
export { rechunk, dropLayout, type RechunkOptions, type RechunkResult } from "./layout/rechunk.js";
export type { ChunkShape } from "./layout/chunk-shape.js";
export { layouts, type LayoutInfo } from "./layout/layout-list.js";
export { zarrStore, ZarrStore } from "./zarr-store/zarr-store.js";
export { DEFAULT_MAX_CHUNK_ROWS, type ZarrStoreOptions } from "./zarr-store/options.js";
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
  type DamagedFile,
  type InaccessibleFile,
  type EnvironmentFailure,
  type TableFileKind,
  type DamagedIndex,
  type DroppedFragment,
  type StatsMismatch,
  type LayoutMismatch,
} from "./check/check.js";
export type { ImportRepair, LeftoverImport, StaleLock } from "./import-claims/leftover-imports.js";
export type { ImportMode } from "./import-claims/import-mark.js";
export type { PendingReplay } from "./widen/widen-replay.js";
export type { ReplayRecord } from "./widen/widen-replay-record.js";
export {
  deleteRows,
  compact,
  cleanupOldVersions,
  versions,
  checkout,
  restore,
  tags,
  tag,
  untag,
  branches,
  branch,
} from "./versions/aliases.js";
export type {
  DeleteResult,
  CompactOptions,
  CompactResult,
  CleanupOptions,
  CleanupResult,
  HalfImport,
  RestoreOptions,
  Version,
} from "./versions/maintenance.js";
export type { TagInfo, BranchInfo, BranchOptions } from "./versions/version-control.js";
