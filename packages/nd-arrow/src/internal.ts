/**
 * @lance-nd/nd-arrow/internal: the helpers the other lance-nd packages
 * (@lance-nd/format, lance-nd) build on, published so that their installed
 * builds can import them. Not part of the public API: no semver promise, and
 * none of these names is in the main entry (README, "For the lance-nd
 * packages").
 */
export { recordBatchOf } from "./record-batch.js";
export type { RecordBatchClass } from "./record-batch.js";
export { tilingProblem } from "./tiling.js";
export type { TilingProblem } from "./tiling.js";
export { largestVariable, MAX_BLOCK_ROW_BYTES, maxBlockRowBytes, ROW_BYTES, storageRowSizes } from "./storage-rows.js";
export type { StoredVariable } from "./storage-rows.js";
export { planRowGroups } from "./row-groups.js";
export type { NamedStoredVariable, RowGroup } from "./row-groups.js";
