/**
 * The second commits of a widen's rewrite (widen-rewrite.ts): Lance lets the
 * rewrite's overwrite replace whatever other writers committed after the
 * rewrite read the table (SDK 0.39 reports no conflict), so the rewrite
 * replays those commits on top of it, by stable row id (README.md, "Widen"):
 * the rows they deleted are deleted again, the rows they appended are
 * appended again, cast, and the replay record the overwrite carries is
 * closed (widen-replay-record.ts). A compaction changes no row and needs
 * nothing. A schema change cannot be replayed: the rewrite is undone (the
 * version before it restored) and the widen fails with a retryable
 * `CommitConflict`.
 */
import type { RecordBatch, Schema } from "apache-arrow";
import { LanceNdError } from "../errors.js";
import type { LanceTable } from "../lance/table-open.js";
import { readTableSchema, scanRows } from "../lance/table-read.js";
import { sdkCall } from "../lance/sdk-call.js";
import { checkoutVersion, restoreVersion } from "../lance/table-versions.js";
import { appendOnce, closeReplay } from "./widen-replay-append.js";
import type { ReplayRecord, RewriteHooks } from "./widen-replay-record.js";

/** How many row ids one delete names (Lance takes long IN lists; this keeps each SQL string small). */
const DELETE_IDS = 50_000;

/** The stable row ids of a scanned batch, appended to `into`. */
export function collectRowIds(batch: RecordBatch, into: bigint[]): void {
  const ids = batch.getChild("_rowid");
  if (ids === null) throw new Error("the scan has no _rowid column");
  for (const id of ids.toArray() as BigUint64Array) into.push(id);
}

/** What a replay needs to know of the rewrite it completes. */
export interface ReplayPlan {
  /** The record the overwrite carries. */
  record: ReplayRecord;
  /** The overwrite's version. */
  overwrite: number;
  /** The stable row ids of version `record.read`, in the order the overwrite wrote those rows. */
  readIds: readonly bigint[];
  /** The table schema the overwrite wrote. */
  widened: Schema;
  /** A scanned batch of the window under `widened`. */
  cast: (batch: RecordBatch) => RecordBatch;
}

/**
 * Replays on the table the commits of versions `read` + 1 .. `overwrite` - 1,
 * which the rewrite's overwrite (version `overwrite`, the rows of version
 * `read` in `readIds` order, cast by `cast` to the `widened` schema)
 * replaced, then closes the record. Safe to run again after a kill at any
 * step: the deletes name row ids, the append is done once
 * (widen-replay-append.ts). Returns the version after the replay.
 *
 * @throws LanceNdError `CommitConflict` (retryable) when a commit of the
 * window changed the schema: the overwrite was undone first.
 */
export async function replayOverwritten(table: LanceTable, plan: ReplayPlan, hooks: RewriteHooks): Promise<number> {
  const { record, overwrite, readIds, widened, cast } = plan;
  const read = record.read;
  const last = overwrite - 1;
  const [before, replaced] = [await checkoutVersion(table, read), await checkoutVersion(table, last)];
  try {
    const readSchema = await readTableSchema(before);
    const replacedSchema = await readTableSchema(replaced);
    // A window that already has the widened types (an in-place cast of the same widen) replays like one without.
    if (!sameFields(readSchema, replacedSchema) && !sameFields(widened, replacedSchema))
      return await undoOverwrite(table, read, overwrite);
    const known = new Set(readIds);
    const kept = new Set<bigint>();
    for await (const batch of scanRows(replaced, { columns: [readSchema.fields[0]!.name], withRowId: true })) {
      const ids: bigint[] = [];
      collectRowIds(batch, ids);
      for (const id of ids) if (known.has(id)) kept.add(id);
    }
    const appended: RecordBatch[] = [];
    for await (const batch of scanRows(replaced, { filter: `_row_created_at_version > ${read}`, withRowId: true })) {
      const ids: bigint[] = [];
      collectRowIds(batch, ids);
      // A row of version `read` that reads as created later cannot be told apart from a new one.
      if (ids.some((id) => known.has(id))) return await undoOverwrite(table, read, overwrite);
      appended.push(cast(batch));
    }
    if (await deleteGone(table, overwrite, readIds, kept)) await hooks.afterStep?.("deletes");
    if (appended.length > 0) await appendOnce(table, record, appended, hooks);
    return await closeReplay(table, record);
  } finally {
    before.sdk.close();
    replaced.sdk.close();
  }
}

/**
 * Deletes the rewrite's copies of the rows of `readIds` that the window
 * deleted (not in `kept`); a copy already deleted is skipped by Lance.
 * Returns true when there was something to delete.
 */
async function deleteGone(
  table: LanceTable,
  overwrite: number,
  readIds: readonly bigint[],
  kept: ReadonlySet<bigint>,
): Promise<boolean> {
  if (kept.size === readIds.length) return false;
  // The overwrite wrote the rows in the order they were read: position i of its scan is readIds[i].
  const rewritten: bigint[] = [];
  const schema = await readTableSchema(table);
  for await (const batch of scanRows(table, { version: overwrite, columns: [schema.fields[0]!.name], withRowId: true }))
    collectRowIds(batch, rewritten);
  if (rewritten.length !== readIds.length) {
    throw new LanceNdError(
      "CommitConflict",
      `widen: the rewrite (version ${overwrite}) holds ${rewritten.length} rows, not the ${readIds.length} it read; rows deleted meanwhile may be back (restore ${overwrite - 1} undoes the rewrite)`,
      { uri: table.uri },
    );
  }
  const gone = rewritten.filter((_, i) => !kept.has(readIds[i]!));
  // Not deleteWhere: Lance 12 cannot count rows by `_rowid` (a DataFusion count_pushdown error); its delete can.
  for (let i = 0; i < gone.length; i += DELETE_IDS) {
    const predicate = `_rowid IN (${gone.slice(i, i + DELETE_IDS).join(", ")})`;
    await sdkCall({ uri: table.uri, op: "delete" }, () => table.sdk.delete(predicate));
  }
  return true;
}

/**
 * Restores the version the overwrite replaced and throws the retryable
 * conflict. A commit that landed on top of the overwrite before the restore
 * is undone by it too: the error then names those versions (they stay
 * readable through `checkout`) and is not retryable.
 */
async function undoOverwrite(table: LanceTable, read: number, overwrite: number): Promise<never> {
  const last = overwrite - 1;
  const restored = await restoreVersion(table, last);
  const window = `versions ${read + 1}..${last}, committed by other writers while the table was rewritten,`;
  if (restored !== overwrite + 1) {
    throw new LanceNdError(
      "CommitConflict",
      `widen: ${window} could not be replayed, and the restore of version ${last} (now version ${restored}) also undid versions ${overwrite + 1}..${restored - 1}, committed after the rewrite; they stay readable (lance-nd restore ${table.uri} ${restored - 1})`,
      { uri: table.uri },
    );
  }
  throw new LanceNdError(
    "CommitConflict",
    `widen: ${window} changed the schema or could not be told apart from the rows it read; the rewrite was undone (version ${last} restored as ${restored}): run the widen again`,
    { uri: table.uri, retryable: true },
  );
}

/** True when both schemas have the same field names and types. */
function sameFields(a: Schema, b: Schema): boolean {
  return (
    a.fields.length === b.fields.length &&
    a.fields.every((f, i) => f.name === b.fields[i]!.name && String(f.type) === String(b.fields[i]!.type))
  );
}
