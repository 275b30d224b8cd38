/**
 * `lance-nd/internal`: the Lance layer under the public API, for this
 * repository's own reliability suite (fault injection: tables written
 * around the library, raw row reads), its white-box profiler
 * (bench/profile.ts), the CLI's import (its claim of the ids and the
 * write under it, README.md "Guarantees"; reads of many files as one
 * dataset, README.md "Many files, one dataset") and its export (the cells
 * an `isel` slice keeps). Not part of the public API: it
 * resolves only under the repository's own `@lance-nd/source` export
 * condition, so the published package does not offer it, and it may change
 * in any release. Apps use `lance-nd`.
 *
 * @module
 */
export { LANCE_FILE_VERSION, createTable, openCommitHandle, type LanceTable } from "./lance/table-open.js";
export { countRows, scanRows, tableBytes, takeRows, type ScanRowsOptions } from "./lance/table-read.js";
export { checkoutVersion, currentVersion } from "./lance/table-versions.js";
export { appendRows } from "./lance/table-write.js";
export { fromSdkBatch, sdkArrow, toSdkTable } from "./lance/arrow-bridge.js";
export { replaceRowsWith, type ReplaceHooks } from "./write/replace-rows.js";
export { writeAll } from "./write/write.js";
export { withFirstFileAttrs } from "./dataset/first-file-attrs.js";
export { claimImport, type ImportClaim, type ImportClaimOptions } from "./import-claims/import-claim.js";
export { repairLeftoverImports, type ImportRepair } from "./import-claims/leftover-imports.js";
export { DEFAULT_BATCH_READAHEAD, DEFAULT_BATCH_SIZE, DEFAULT_BATCH_SIZE_BYTES } from "./read/scan.js";
export { batchRows, withoutRowId } from "./read/read-plan.js";
export { rowBytes, takeRead } from "./read/take-read.js";
export { widenTable } from "./widen/widen.js";
export type { ReplayStep, RewriteHooks } from "./widen/widen-replay-record.js";
export { sliceBounds } from "@lance-nd/nd-arrow";
export { fromColumnName, toColumnName, withColumnNames, withSourceNames } from "./export/column-names.js";
export { SOURCE_ESCAPE, SOURCE_ID_ATTR, sourceGlobals, storedGlobalName } from "./export/source-globals.js";
export { CF_MODE_KEY, CF_MODES, cfModeOptions, tableCfEncoding, tableCfMode, type CfMode } from "./export/cf-mode.js";
export { sourceRow } from "./export/source-row.js";
export { describeHalfImport } from "./versions/maintenance.js";
export { ATTR_DTYPES_ATTR, recordAttrTypes, sourceAttrTypes } from "./export/attr-types.js";
