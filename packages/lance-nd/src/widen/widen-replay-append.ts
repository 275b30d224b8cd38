/**
 * The last steps of a widen replay (widen-window.ts), made safe to run again
 * after a kill (README.md, "Widen"): the append of the window's rows, told
 * apart from any other append by a progress mark and the rows themselves,
 * and the key that closes the record.
 */
import type { RecordBatch } from "apache-arrow";
import type { LanceTable } from "../lance/table-open.js";
import { readTableSchema, scanRows } from "../lance/table-read.js";
import { currentVersion, listVersions } from "../lance/table-versions.js";
import { addSchemaMetadata, appendRows } from "../lance/table-write.js";
import {
  appendingMark,
  REPLAY_APPENDING_KEY,
  REPLAY_DONE_KEY,
  type ReplayRecord,
  type RewriteHooks,
} from "./widen-replay-record.js";

/**
 * Appends `rows` (the window's appended rows, cast) unless an earlier run of
 * this replay already did: before its append a run adds the append mark
 * (the version before it), so an append of the replay is a version after
 * the mark's that added exactly these rows, in this order.
 */
export async function appendOnce(
  table: LanceTable,
  record: ReplayRecord,
  rows: readonly RecordBatch[],
  hooks: RewriteHooks,
): Promise<void> {
  const mark = appendingMark(await readTableSchema(table), record, table.uri);
  if (mark !== null && (await appendedAfter(table, mark.after, rows))) return;
  if (mark === null) {
    const after = await currentVersion(table);
    await addSchemaMetadata(table, { [REPLAY_APPENDING_KEY]: JSON.stringify({ id: record.id, after }) });
  }
  await hooks.afterStep?.("appending");
  await appendRows(table, rows);
  await hooks.afterStep?.("append");
}

/** Closes the record: one metadata-only commit. Returns the version after it. */
export async function closeReplay(table: LanceTable, record: ReplayRecord): Promise<number> {
  return addSchemaMetadata(table, { [REPLAY_DONE_KEY]: record.id });
}

/** True when a version after `after` appended exactly `rows` (same count, same values, same order). */
async function appendedAfter(table: LanceTable, after: number, rows: readonly RecordBatch[]): Promise<boolean> {
  const count = rows.reduce((n, batch) => n + batch.numRows, 0);
  const all = await listVersions(table);
  const totals = new Map(all.map((v) => [v.version, Number(v.metadata.total_rows ?? Number.NaN)]));
  const versions = all.filter((v) => v.version > after);
  const expected = rowTexts(rows);
  const columns = rows[0]!.schema.fields.map((f) => f.name);
  for (const { version } of versions) {
    const added = (totals.get(version) ?? Number.NaN) - (totals.get(version - 1) ?? Number.NaN);
    // Lance's summary tells most versions apart without a read; a version without one is read.
    if (!Number.isNaN(added) && added !== count) continue;
    const filter = `_row_created_at_version = ${version}`;
    const found: RecordBatch[] = [];
    for await (const batch of scanRows(table, { version, columns, filter })) found.push(batch);
    const texts = rowTexts(found);
    if (texts.length === expected.length && texts.every((text, i) => text === expected[i])) return true;
  }
  return false;
}

/** Each row of `batches` as JSON (64-bit integers as strings), for comparing rows of the same columns. */
function rowTexts(batches: readonly RecordBatch[]): string[] {
  const texts: string[] = [];
  for (const batch of batches) {
    for (const row of batch) {
      texts.push(JSON.stringify(row, (_, value: unknown) => (typeof value === "bigint" ? String(value) : value)));
    }
  }
  return texts;
}
