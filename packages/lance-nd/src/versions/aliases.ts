/**
 * The table operations the API spec names as functions: each an alias of
 * the `NdTable` method that does the work (README.md, "Methods and
 * functions"); the operations the spec does not name are methods only. `versions(table)` is `table.versions()`; a value
 * that is not an NdTable is `InvalidInput` naming the function.
 */
import type { Expr } from "../read/expr.js";
import type { NdTable } from "../table.js";
import { checkTable } from "../table-check.js";
import type { BranchInfo, BranchOptions, TagInfo } from "./version-control.js";
import type {
  CleanupOptions,
  CleanupResult,
  CompactOptions,
  CompactResult,
  DeleteResult,
  RestoreOptions,
  Version,
} from "./maintenance.js";

/** Alias of {@link NdTable.delete}: `deleteRows(table, predicate)` is `table.delete(predicate)`. */
export async function deleteRows(table: NdTable, predicate: string | Expr): Promise<DeleteResult> {
  checkTable(table, "deleteRows");
  return table.delete(predicate);
}

/** Alias of {@link NdTable.compact}: `compact(table, options)` is `table.compact(options)`. */
export async function compact(table: NdTable, options: CompactOptions = {}): Promise<CompactResult> {
  checkTable(table, "compact");
  return table.compact(options);
}

/** Alias of {@link NdTable.cleanupOldVersions}: `cleanupOldVersions(table, options)` is `table.cleanupOldVersions(options)`. */
export async function cleanupOldVersions(table: NdTable, options: CleanupOptions): Promise<CleanupResult> {
  checkTable(table, "cleanupOldVersions");
  return table.cleanupOldVersions(options);
}

/** Alias of {@link NdTable.versions}: `versions(table)` is `table.versions()`. */
export async function versions(table: NdTable): Promise<Version[]> {
  checkTable(table, "versions");
  return table.versions();
}

/** Alias of {@link NdTable.checkout}: `checkout(table, version)` is `table.checkout(version)`. */
export async function checkout(table: NdTable, version: number | string): Promise<NdTable> {
  checkTable(table, "checkout");
  return table.checkout(version);
}

/** Alias of {@link NdTable.restore}: `restore(table, version, options)` is `table.restore(version, options)`. */
export async function restore(table: NdTable, version: number | string, options?: RestoreOptions): Promise<number> {
  checkTable(table, "restore");
  return table.restore(version, options);
}

/** Alias of {@link NdTable.tags}: `tags(table)` is `table.tags()`. */
export async function tags(table: NdTable): Promise<TagInfo[]> {
  checkTable(table, "tags");
  return table.tags();
}

/** Alias of {@link NdTable.tag}: `tag(table, name, version?)` is `table.tag(name, version?)`. */
export async function tag(table: NdTable, name: string, version?: number): Promise<number> {
  checkTable(table, "tag");
  return table.tag(name, version);
}

/** Alias of {@link NdTable.untag}: `untag(table, name)` is `table.untag(name)`. */
export async function untag(table: NdTable, name: string): Promise<void> {
  checkTable(table, "untag");
  return table.untag(name);
}

/** Alias of {@link NdTable.branches}: `branches(table)` is `table.branches()`. */
export async function branches(table: NdTable): Promise<BranchInfo[]> {
  checkTable(table, "branches");
  return table.branches();
}

/** Alias of {@link NdTable.createBranch}: `branch(table, name, options)` is `table.createBranch(name, options)`. */
export async function branch(table: NdTable, name: string, options: BranchOptions = {}): Promise<NdTable> {
  checkTable(table, "branch");
  return table.createBranch(name, options);
}
