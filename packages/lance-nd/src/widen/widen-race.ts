/**
 * The append side of the widen guarantee (README.md, "Widen and concurrent
 * appends"). Lance lets an Append commit on top of an in-place cast (a
 * Merge) that landed after the Append's read version (SDK-NOTES.md,
 * section 11): the appended data files hold the old type under the new
 * field, and every read of that variable in those rows panics. So every
 * lance-nd append checks, after its commit, whether the table's types
 * changed under it, and if so removes its own rows again (one delete by
 * `_row_created_at_version`) so the add can be written again with the new
 * types. Readers may meet those rows between the two commits.
 */
import type { Schema } from "apache-arrow";
import { LanceNdError } from "../errors.js";
import type { LanceTable } from "../lance/table-open.js";
import { countRows, readTableSchema } from "../lance/table-read.js";
import { checkoutVersion, deleteWhere } from "../lance/table-versions.js";
import { RollbackIncompleteError } from "../lance/rollback-error.js";

/**
 * After an append of `rows` rows encoded as `written`, committed as
 * `version`: when the table at that version types a written column
 * differently (a widen from another process committed between the
 * append's read and its commit), deletes the append's rows and throws a
 * retryable `CommitConflict`, so the caller writes them again.
 *
 * @throws LanceNdError `CommitConflict` (retryable) after removing the rows;
 * `RollbackIncompleteError` when they cannot be removed.
 */
export async function undoIfWidenedUnder(
  table: LanceTable,
  written: Schema,
  version: number,
  rows: number,
): Promise<void> {
  if (sameColumnTypes(written, await readTableSchema(table))) return;
  const atCommit = await checkoutVersion(table, version);
  try {
    if (sameColumnTypes(written, await readTableSchema(atCommit))) return;
  } finally {
    atCommit.sdk.close();
  }
  const predicate = `_row_created_at_version = ${version}`;
  try {
    if ((await countRows(table, predicate)) !== rows)
      throw new Error("the table has no stable row ids: the rows of the version cannot be told apart");
    await deleteWhere(table, predicate);
  } catch (err) {
    const leftBehind = {
      versions: [version],
      rows,
      undo: `lance-nd delete ${table.uri} --where "${predicate}"`,
      deletePredicate: predicate,
    };
    throw new RollbackIncompleteError(
      table.uri,
      leftBehind,
      `a widen committed under the append, and its rows could not be removed: ${err instanceof Error ? err.message : String(err)}`,
      err,
      undefined,
    );
  }
  throw new LanceNdError(
    "CommitConflict",
    `a widen committed while the add of version ${version} was written; its rows were removed to be written again with the new types`,
    {
      uri: table.uri,
      retryable: true,
    },
  );
}

/** True when every column of `written` has the same type in `table`. */
function sameColumnTypes(written: Schema, table: Schema): boolean {
  const types = new Map(table.fields.map((f) => [f.name, String(f.type)]));
  return written.fields.every((f) => types.get(f.name) === String(f.type));
}
