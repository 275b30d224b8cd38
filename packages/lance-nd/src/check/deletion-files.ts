/**
 * Fragments whose deletion file is missing or damaged (README, "check"):
 * Lance reads no row of the table while one is, since every scan opens
 * every fragment's deletion file. Such a fragment's deletions are unknown:
 * any of its rows may be one deleted earlier (an old copy of a replaced
 * row, a row `deleteRows` removed), so `repair` keeps none of them. It
 * moves the damaged file into the quarantine folder, puts an empty
 * deletion file in its place, deletes the fragment's rows in one commit
 * (Lance then drops the fragment), and lists the fragment, its data files
 * and the rows the manifest counted live.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { Field, makeData, RecordBatch, Schema, Struct, Table, tableToIPC, Uint32 } from "apache-arrow";
import type { FragmentLayout } from "../lance/manifest-layout.js";
import { sdkCall } from "../lance/sdk-call.js";
import { openTable, type LanceTable, type StorageOptions } from "../lance/table-open.js";
import { QUARANTINE_FOLDER } from "../lance/version-files.js";

/** A fragment `repair` removed because its deletion file was lost. */
export interface DroppedFragment {
  /** The fragment id. */
  fragment: number;
  /** The deletion file the manifest names. */
  deletionFile: string;
  /** Where the damaged deletion file went (none when it was missing). */
  quarantined: string | null;
  /** Its data files: they stay in `data/` until `cleanupOldVersions` removes them. */
  dataFiles: string[];
  /** The rows the manifest counted live in it, all removed. */
  rows: number;
}

/**
 * Removes the fragments of the latest version in `fragments` (each with a
 * damaged deletion file) from the table at `uri`, in one delete commit.
 * When the delete fails, the damaged files go back where they were.
 */
export async function dropFragments(
  uri: string,
  folder: string,
  storage: StorageOptions,
  fragments: readonly FragmentLayout[],
): Promise<DroppedFragment[]> {
  if (fragments.length === 0) return [];
  const target = path.join(folder, QUARANTINE_FOLDER);
  mkdirSync(target, { recursive: true });
  const dropped: DroppedFragment[] = fragments.map((f) => {
    const file = f.deletionFile!.path;
    const quarantined = existsSync(file) ? path.join(target, `${Date.now()}-${path.basename(file)}`) : null;
    if (quarantined !== null) renameSync(file, quarantined);
    writeFileSync(file, f.deletionFile!.type === "bitmap" ? EMPTY_ROARING : emptyArrowDeletions());
    return {
      fragment: f.id,
      deletionFile: file,
      quarantined,
      dataFiles: f.dataFiles.map((d) => d.path),
      rows: f.physicalRows - f.deletionFile!.deletedRows,
    };
  });
  let table: LanceTable | undefined;
  try {
    table = await openTable(uri, storage);
    const ranges = fragments.map(
      ({ id }) => `(_rowaddr >= ${BigInt(id) << 32n} AND _rowaddr < ${BigInt(id + 1) << 32n})`,
    );
    await sdkCall({ uri, op: "delete" }, () => table!.sdk.delete(ranges.join(" OR ")));
  } catch (err) {
    for (const d of dropped) {
      if (d.quarantined === null) rmSync(d.deletionFile, { force: true });
      else renameSync(d.quarantined, d.deletionFile);
    }
    throw err;
  } finally {
    table?.sdk.close();
  }
  return dropped;
}

/** An empty roaring bitmap (portable format: the no-run cookie, zero containers). */
const EMPTY_ROARING = Buffer.from([0x3a, 0x30, 0, 0, 0, 0, 0, 0]);

/** An Arrow IPC deletion file that deletes nothing: one batch of no `row_id` (Lance needs exactly one batch). */
function emptyArrowDeletions(): Uint8Array {
  const schema = new Schema([new Field("row_id", new Uint32(), false)]);
  const rowIds = makeData({ type: new Uint32(), length: 0, nullCount: 0, data: new Uint32Array(0) });
  const batch = new RecordBatch(
    schema,
    makeData({ type: new Struct(schema.fields), length: 0, nullCount: 0, children: [rowIds] }),
  );
  return tableToIPC(new Table(schema, [batch]), "file");
}
