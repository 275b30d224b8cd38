/**
 * `replaceRows`: new rows in, the rows they replace out, as one operation of
 * the commit ledger (README.md, "Commit ledger"): append at version v, then
 * delete the replaced rows created before v.
 */
import { LanceNdError } from "../errors.js";
import { Expr } from "../read/expr.js";
import type { AppendOptions } from "./write-options.js";
import type { NdTable } from "../table.js";
import { type NdRows, writeAll } from "./write.js";
import { NdWriter } from "./writer.js";

/**
 * Appends `rows` to `table` (streamed through an NdWriter: memory follows
 * the rows, not the table), then deletes the rows that `predicate` selects
 * and that were created before the first of those appends (version v): the
 * rows the new ones replace, e.g. the rows of one source file (`import
 * --mode replace`). Two commits of one commit-ledger operation (README.md,
 * "Commit ledger"): a reader sees both copies between them, never none;
 * when the delete fails the appended rows are removed again; a process
 * killed between them leaves both copies, and the next `replaceRows` of the
 * same rows clears them (every copy created before its own append). The new
 * rows are never deleted, even when they match. Returns the table and the
 * rows deleted.
 *
 * @throws LanceNdError as {@link append}; `InvalidInput` for a bad predicate
 * or a table without stable row ids (not created by lance-nd's write).
 * @example
 * await replaceRows(table, rows, col("__global_attrs__.source").eq("sst-2000.nc"));
 */
export async function replaceRows(
  table: NdTable,
  rows: NdRows,
  predicate: string | Expr,
  options: AppendOptions = {},
): Promise<{ table: NdTable; deleted: number }> {
  return replaceRowsWith(table, rows, predicate, options, {});
}

/** @internal Steps of {@link replaceRowsWith} a test can wait in (the reliability suite kills a process there). */
export interface ReplaceHooks {
  /** Runs after the appends committed, before the delete. */
  afterAppend?: (versions: readonly number[]) => Promise<void>;
}

/** @internal {@link replaceRows}, with `hooks` run between its commits. */
export async function replaceRowsWith(
  table: NdTable,
  rows: NdRows,
  predicate: string | Expr,
  options: AppendOptions,
  hooks: ReplaceHooks,
): Promise<{ table: NdTable; deleted: number }> {
  const writer = await NdWriter.append(table, options);
  const before = await table.version();
  const sql = predicate instanceof Expr ? predicate.toSql() : predicate;
  const { result } = await writeAll(writer, rows, async (written, versions) => {
    await hooks.afterAppend?.(versions);
    const appended = versions[0] ?? before + 1;
    // Without stable row ids every row reads _row_created_at_version 1.
    if (versions.length > 0 && (await written.countRows(`_row_created_at_version >= ${appended}`)) === 0) {
      throw new LanceNdError(
        "InvalidInput",
        "replaceRows needs stable row ids (a table created by lance-nd's write) to tell the new rows from the old",
        { uri: table.uri },
      );
    }
    return (await written.delete(`(${sql}) AND _row_created_at_version < ${appended}`)).deleted;
  });
  return { table, deleted: result ?? 0 };
}
