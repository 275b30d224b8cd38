/**
 * The check without repair: every manifest; every file, row and key index
 * of the newest readable version; with `deep`, every row's values against
 * its stats and every current layout against its dataset; the pending widen
 * replay and what killed imports left (README, "check"). `check.ts` runs it,
 * and `repair.ts` runs it again after a repair.
 */
import * as path from "node:path";
import { isLanceNdError } from "../errors.js";
import { deniedPath } from "../lance/denied-path.js";
import { readManifestLayout, type ManifestLayout } from "../lance/manifest-layout.js";
import { rowHealth, type UnreadableRow } from "../lance/row-health.js";
import { readTableSchema } from "../lance/table-read.js";
import type { LanceTable, StorageOptions } from "../lance/table-open.js";
import { localTableFolder } from "../lance/version-files.js";
import { findPendingReplay } from "../widen/widen-replay.js";
import { importLeftovers } from "../import-claims/leftover-imports.js";
import { noteLayoutMismatches } from "./deep-layouts.js";
import { statsCheck } from "./deep-stats.js";
import { type EnvironmentFailure, environmentFailure, failedObject } from "./environment-errors.js";
import { probeFiles, type FileProbe, type InaccessibleFile } from "./file-probe.js";
import { keyIndexHealth } from "./key-index-health.js";
import { isWhole, type CheckReport } from "./report.js";
import { localVersions, openVersion, remoteVersions, withoutPlace } from "./version-health.js";

/** A check's report, and the manifest layout of its checked version (local tables). */
export interface Inspection {
  report: CheckReport;
  layout: ManifestLayout | undefined;
  files: FileProbe;
}

/** The check without repair of the table at `uri`. */
export async function inspect(uri: string, storage: StorageOptions, deep: boolean): Promise<Inspection> {
  const folder = localTableFolder(uri);
  const notes: string[] = [];
  const unreached: InaccessibleFile[] = [];
  const versions =
    folder === undefined
      ? await remoteVersions(uri, storage, notes, unreached)
      : await localVersions(uri, folder, unreached);
  const newest = versions.find((v) => v.readable);
  const report: CheckReport = {
    uri,
    ok: false,
    latestVersion: versions[0]?.version ?? null,
    newestReadableVersion: newest?.version ?? null,
    versions,
    checkedVersion: null,
    rows: 0,
    fragments: [],
    damagedFiles: [],
    inaccessibleFiles: unreached,
    unreadableRows: [],
    damagedIndexes: [],
    statsMismatches: null,
    layoutMismatches: null,
    pendingWidenReplay: null,
    leftoverImports: [],
    staleLocks: [],
    notes,
    repair: null,
  };
  const inspection: Inspection = { report, layout: undefined, files: { damaged: [], inaccessible: [] } };
  let replayKnown = true;
  if (newest !== undefined) {
    report.checkedVersion = newest.version;
    if (folder === undefined) notes.push("files are probed on local tables only; the rows were read through the SDK");
    else {
      inspection.layout = readManifestLayout(folder, path.join(folder, "_versions", newest.file!));
      inspection.files = probeFiles(inspection.layout);
      report.damagedFiles = inspection.files.damaged;
      report.inaccessibleFiles.push(...inspection.files.inaccessible);
    }
    // A latest manifest this process may not read is not in `versions`: the newest listed is then not the latest.
    const isLatest = newest === versions[0] && unreached.length === 0;
    const { table, close } = await openVersion(uri, storage, folder, newest, isLatest);
    try {
      if (scanBlocked(inspection)) countFromManifest(report, inspection.layout!);
      else await readRows(table, inspection, deep);
      if (isLatest) replayKnown = await notePendingReplay(table, report);
      if (isLatest) await noteImportLeftovers(table, report);
    } finally {
      close();
    }
  }
  report.ok = isWhole(report, replayKnown);
  return inspection;
}

/**
 * Sets the report's leftover imports and stale locks, found in the table's
 * tags (README.md, "Guarantees"). Tags this process cannot list or read
 * (a permission, an object store's refusal or failure) are an inaccessible
 * `tag` file, naming the file or folder, and not damage.
 */
async function noteImportLeftovers(table: LanceTable, report: CheckReport): Promise<void> {
  try {
    Object.assign(report, await importLeftovers(table));
  } catch (err) {
    const cause = isLanceNdError(err) ? withoutPlace(err, report.uri) : undefined;
    const failure = cause === undefined ? undefined : environmentFailure(cause);
    if (failure === undefined) throw err;
    const file = deniedPath(report.uri) ?? failedObject(cause!, report.uri) ?? `${report.uri}/_refs/tags`;
    report.inaccessibleFiles.push({ path: file, kind: "tag", cause: cause!, failure });
  }
}

/** True when a deletion file is damaged or cannot be opened: every scan of the version fails. */
function scanBlocked({ files }: Inspection): boolean {
  return [...files.damaged, ...files.inaccessible].some((f) => f.kind === "deletion");
}

/** The fragments and live rows the manifest counts, for a version whose rows cannot be scanned; with a note. */
function countFromManifest(report: CheckReport, layout: ManifestLayout): void {
  report.fragments = layout.fragments.map((f) => ({
    id: f.id,
    rows: f.physicalRows - (f.deletionFile?.deletedRows ?? 0),
    unreadable: 0,
    read: false,
  }));
  report.rows = report.fragments.reduce((n, f) => n + f.rows, 0);
  report.notes.push(
    "no row was read: Lance opens every fragment's deletion file on every scan, and a deletion file is damaged or cannot be opened",
  );
}

/**
 * Reads every row of the fragments whose files open, sorting the failures
 * into proven damage and environment errors, and with `deep` compares the
 * values of each row read with its stats; opens the key indexes (by their
 * files alone while a row does not read).
 */
async function readRows(table: LanceTable, inspection: Inspection, deep: boolean): Promise<void> {
  const { report, files } = inspection;
  const skip = new Set(files.inaccessible.map((f) => f.fragment).filter((f) => f !== undefined));
  const stats = deep ? statsCheck(await readTableSchema(table)) : null;
  let health: Awaited<ReturnType<typeof rowHealth>>;
  try {
    health = await rowHealth(table, { skip, onRows: stats === null ? undefined : (batch) => stats.compare(batch) });
  } catch (err) {
    if (!isLanceNdError(err) || !noteDeletionFileError(inspection, withoutPlace(err, report.uri))) throw err;
    countFromManifest(report, inspection.layout!);
    return;
  }
  report.fragments = health.fragments;
  report.rows = health.fragments.reduce((n, f) => n + f.rows, 0);
  for (const row of health.unreadableRows) {
    const failure = environmentFailure(row.error);
    if (failure === undefined) report.unreadableRows.push(row);
    else report.inaccessibleFiles.push(rowsFile(inspection, row, failure));
  }
  // A query of a key index reads the key of the rows it does not cover, so it waits until every row reads.
  const indexes = await keyIndexHealth(table, files, report.unreadableRows.length === 0);
  report.damagedIndexes = indexes.damaged;
  for (const { name, cause } of indexes.inaccessible)
    report.inaccessibleFiles.push({
      path: name,
      kind: "index",
      index: name,
      cause,
      failure: environmentFailure(cause)!,
    });
  if (deep) report.statsMismatches = stats?.mismatches ?? [];
  const whole = health.fragments.every((f) => f.read && f.unreadable === 0);
  if (deep && !whole) report.notes.push("the deep check covers the rows that could be read; layouts were not compared");
  if (deep && whole) await noteLayoutMismatches(table, report);
}

/**
 * For a scan that failed on a deletion file whose frame the probe read
 * (Lance names the file in its error): records the file as undecodable, or
 * as inaccessible for an environment error. False when the error names no
 * deletion file of the version.
 */
function noteDeletionFileError({ report, layout }: Inspection, error: string): boolean {
  const fragment = layout?.fragments.find(
    (f) => f.deletionFile !== undefined && error.includes(`_deletions/${path.basename(f.deletionFile.path)}`),
  );
  if (fragment === undefined) return false;
  const file = { path: fragment.deletionFile!.path, kind: "deletion", fragment: fragment.id } as const;
  const failure = environmentFailure(error);
  if (failure !== undefined) report.inaccessibleFiles.push({ ...file, cause: error, failure });
  else report.damagedFiles.push({ ...file, problem: "undecodable", detail: error });
  return true;
}

/**
 * The inaccessible-file entry of a row whose read failed for a reason that
 * is not damage: the fragment's data file from the manifest (local tables),
 * or the object the store's error names.
 */
function rowsFile(
  { report, layout }: Inspection,
  row: UnreadableRow,
  failure: EnvironmentFailure,
): CheckReport["inaccessibleFiles"][number] {
  const file =
    layout?.fragments.find((f) => f.id === row.fragment)?.dataFiles[0]?.path ??
    failedObject(row.error, report.uri) ??
    report.uri;
  return { path: file, kind: "data", fragment: row.fragment, cause: `row id ${row.rowId}: ${row.error}`, failure };
}

/** Sets the report's pending widen replay, with a note; false (and a note) for a record lance-nd did not write. */
async function notePendingReplay(table: LanceTable, report: CheckReport): Promise<boolean> {
  try {
    report.pendingWidenReplay = await findPendingReplay(table);
  } catch (err) {
    if (!isLanceNdError(err, "InvalidTable")) throw err;
    report.notes.push(withoutPlace(err, report.uri));
    return false;
  }
  const pending = report.pendingWidenReplay;
  if (pending !== null) {
    const window =
      pending.overwrite === pending.read + 1
        ? "closed its replay record (nothing to replay)"
        : `replayed versions ${pending.read + 1}..${pending.overwrite - 1}, whose commits are missing from the latest version,`;
    report.notes.push(
      `a widen of "${pending.variable}" was killed before it ${window} on its rewrite (version ${pending.overwrite}): \`lance-nd check --repair\` (or the next widen) completes it`,
    );
  }
  return true;
}
