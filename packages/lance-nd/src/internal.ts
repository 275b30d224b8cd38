/**
 * `lance-nd/internal`: the Lance layer under the public API, for this
 * repository's own tools and no one else. Each name here has a user
 * outside lance-nd; lance-nd's own code and tests import a name from the
 * file that defines it, never from here. Its users:
 *
 * - the CLI (`packages/cli/src`): its import (the claim of the ids and the
 *   write under it, README.md "Guarantees"; the CF mode and the attribute
 *   types it records), its export (a row as its source file had it: column
 *   and global names, attribute types, the CF encoding) and its open of a
 *   table a killed import left half written;
 * - the CLI's tests (`packages/cli/test`): an import's claim and a widen
 *   around the CLI;
 * - the reliability suite (`reliability/`): fault injection, tables written
 *   around the library and raw row reads;
 * - the benchmarks (`bench/`): the white-box profiler `bench/profile.ts`
 *   (the read path one step at a time), `bench/lancedb.ts` and
 *   `bench/variables.ts` (the Arrow bridge timed alone).
 *
 * Not part of the public API: it resolves only under the repository's own
 * `@lance-nd/source` export condition, so the published package does not
 * offer it, and it may change in any release. Apps use `lance-nd`.
 *
 * @module
 */

// reliability/ (createTable, openCommitHandle), bench/profile.ts (LanceTable)
export { createTable, openCommitHandle, type LanceTable } from "./lance/table-open.js";
// bench/profile.ts; scanRows also reliability/
export { countRows, scanRows, tableBytes } from "./lance/table-read.js";
// bench/profile.ts
export { checkoutVersion, currentVersion } from "./lance/table-versions.js";
// reliability/
export { appendRows } from "./lance/table-write.js";
// bench/variables.ts (fromSdkBatch), bench/profile.ts and bench/lancedb.ts (toSdkTable)
export { fromSdkBatch, toSdkTable } from "./lance/arrow-bridge.js";
// the CLI's import, reliability/
export { replaceRowsWith } from "./write/replace-rows.js";
// the CLI's import
export { writeAll } from "./write/write.js";
// the CLI's import and its tests, reliability/
export { claimImport } from "./import-claims/import-claim.js";
// bench/profile.ts
export { DEFAULT_BATCH_READAHEAD, DEFAULT_BATCH_SIZE, DEFAULT_BATCH_SIZE_BYTES } from "./read/scan.js";
export { batchRows, withoutRowId } from "./read/read-plan.js";
export { rowBytes, takeRead } from "./read/take-read.js";
// the CLI's tests, reliability/
export { widenTable } from "./widen/widen.js";
// the CLI's export
export { withColumnNames, withSourceNames } from "./export/column-names.js";
export { sourceGlobals, storedGlobalName } from "./export/source-globals.js";
export { sourceRow } from "./export/source-row.js";
// the CLI's import (CF_MODE_KEY, CF_MODES, cfModeOptions, tableCfMode, CfMode) and export (tableCfEncoding)
export { CF_MODE_KEY, CF_MODES, cfModeOptions, tableCfEncoding, tableCfMode, type CfMode } from "./export/cf-mode.js";
// the CLI's import (recordAttrTypes), export (sourceAttrTypes) and its hiding of storage attributes (ATTR_DTYPES_ATTR)
export { ATTR_DTYPES_ATTR, recordAttrTypes, sourceAttrTypes } from "./export/attr-types.js";
// the CLI's open of a table
export { describeHalfImport } from "./versions/maintenance.js";
