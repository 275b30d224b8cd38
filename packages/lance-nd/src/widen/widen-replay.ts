/**
 * Completing a widen replay that a killed process left unfinished (README.md,
 * "Widen"): whoever meets the record (`widen`, `check --repair`,
 * `cleanupOldVersions`) finds the rewrite's overwrite, reads the row ids of
 * the version it rewrote again (the same unfiltered scan, so the same
 * order) and runs the replay (widen-window.ts), which is safe to run again.
 */
import { validateTableSchema, widenSchema } from "@lance-nd/format";
import type { RecordBatch } from "apache-arrow";
import { LanceNdError } from "../errors.js";
import type { LanceTable } from "../lance/table-open.js";
import { readTableSchema, scanRows } from "../lance/table-read.js";
import { sdkCall } from "../lance/sdk-call.js";
import { checkoutVersion, listVersions } from "../lance/table-versions.js";
import { withPureErrors } from "../pure-errors.js";
import { closeReplay } from "./widen-replay-append.js";
import { pendingReplay, REPLAY_KEY, type ReplayRecord, type RewriteHooks } from "./widen-replay-record.js";
import { castBatch } from "./widen-rewrite.js";
import { collectRowIds, replayOverwritten } from "./widen-window.js";

/** A pending replay of the latest version, and the version of the overwrite that carries it. */
export interface PendingReplay extends ReplayRecord {
  /** The rewrite's overwrite. */
  overwrite: number;
}

/**
 * The pending widen replay of the table's latest version, or null.
 *
 * @throws LanceNdError `InvalidTable` for a record lance-nd did not write, or
 * whose overwrite is gone.
 */
export async function findPendingReplay(table: LanceTable): Promise<PendingReplay | null> {
  const record = pendingReplay(await readTableSchema(table), table.uri);
  return record === null ? null : { ...record, overwrite: await findOverwrite(table, record) };
}

/**
 * Completes the widen replay the latest version records, if any; moves the
 * handle to the latest version first. Returns what it completed, or null.
 *
 * @throws LanceNdError `InvalidTable` for a record lance-nd did not write;
 * `CommitConflict` when the window changed the schema (the rewrite is
 * undone, as in the widen itself).
 */
export async function completeWidenReplay(table: LanceTable, hooks: RewriteHooks = {}): Promise<PendingReplay | null> {
  await sdkCall({ uri: table.uri, op: "refresh" }, () => table.sdk.checkoutLatest());
  const pending = await findPendingReplay(table);
  if (pending === null) return null;
  const { overwrite, ...record } = pending;
  if (overwrite === record.read + 1) {
    await closeReplay(table, record);
    return pending;
  }
  const [readView, overwriteView] = [
    await checkoutVersion(table, record.read),
    await checkoutVersion(table, overwrite),
  ];
  try {
    const widened = await readTableSchema(overwriteView);
    const readSchema = await readTableSchema(readView);
    const to = withPureErrors({ uri: table.uri }, () => validateTableSchema(widened)).arrays.get(record.variable);
    if (to === undefined) {
      throw new LanceNdError(
        "InvalidTable",
        `schema metadata key "${REPLAY_KEY}" names variable "${record.variable}", which version ${overwrite} lacks`,
        { uri: table.uri },
      );
    }
    const { widening } = withPureErrors({ uri: table.uri }, () =>
      widenSchema(readSchema, record.variable, to.valueType),
    );
    const readIds: bigint[] = [];
    for await (const batch of scanRows(readView, { columns: [readSchema.fields[0]!.name], withRowId: true }))
      collectRowIds(batch, readIds);
    const cast = (batch: RecordBatch) => castBatch(batch, widened, widening);
    await replayOverwritten(table, { record, overwrite, readIds, widened, cast }, hooks);
    return pending;
  } finally {
    readView.sdk.close();
    overwriteView.sdk.close();
  }
}

/** The first version after `record.read` whose schema carries the record (from it on, every version does). */
async function findOverwrite(table: LanceTable, record: ReplayRecord): Promise<number> {
  const versions = (await listVersions(table)).map((v) => v.version).filter((v) => v > record.read);
  let [low, high] = [0, versions.length - 1];
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (await carries(table, versions[middle]!, record)) high = middle;
    else low = middle + 1;
  }
  const found = versions[low];
  if (found === undefined || !(await carries(table, found, record))) {
    throw new LanceNdError(
      "InvalidTable",
      `schema metadata key "${REPLAY_KEY}" names a widen rewrite of version ${record.read} whose overwrite no version after it holds`,
      { uri: table.uri },
    );
  }
  return found;
}

async function carries(table: LanceTable, version: number, record: ReplayRecord): Promise<boolean> {
  const view = await checkoutVersion(table, version);
  try {
    const text = (await readTableSchema(view)).metadata.get(REPLAY_KEY);
    return text !== undefined && (JSON.parse(text) as ReplayRecord).id === record.id;
  } finally {
    view.sdk.close();
  }
}
