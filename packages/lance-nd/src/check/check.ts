/**
 * `check`: what of a table can still be read (every manifest; every file,
 * row and key index of the newest readable version; with `deep`, every
 * row's values against its stats and every current layout against its
 * dataset), and `repair`: remove what is proven
 * damaged, each listed in the report (README, "check").
 */
import * as path from "node:path";
import { isLanceNdError, LanceNdError } from "../errors.js";
import { deniedPath } from "../lance/denied-path.js";
import { readManifestLayout, type FragmentLayout, type ManifestLayout } from "../lance/manifest-layout.js";
import { rowHealth, type UnreadableRow } from "../lance/row-health.js";
import { readTableSchema } from "../lance/table-read.js";
import { sdkCall } from "../lance/sdk-call.js";
import { openTable, type LanceTable, type StorageOptions } from "../lance/table-open.js";
import { localTableFolder, quarantineManifests } from "../lance/version-files.js";
import { NdTable } from "../table.js";
import { asSchemaChange } from "../widen/schema-lock.js";
import { completeWidenReplay, findPendingReplay } from "../widen/widen-replay.js";
import { importLeftovers, repairLeftoverImports } from "../import-claims/leftover-imports.js";
import { noteLayoutMismatches } from "./deep-layouts.js";
import { statsCheck } from "./deep-stats.js";
import { dropFragments } from "./deletion-files.js";
import { type EnvironmentFailure, environmentFailure, failedObject } from "./environment-errors.js";
import { probeFiles, type FileProbe, type InaccessibleFile } from "./file-probe.js";
import { keyIndexHealth, rebuildIndexes } from "./key-index-health.js";
import { isWhole, type CheckOptions, type CheckReport } from "./report.js";
import { localVersions, openVersion, remoteVersions, withoutPlace } from "./version-health.js";

export type { FragmentHealth, UnreadableRow } from "../lance/row-health.js";
export type { CheckOptions, CheckRepair, CheckReport } from "./report.js";
export type { VersionHealth } from "./version-health.js";
export type { DamagedFile, InaccessibleFile, TableFileKind } from "./file-probe.js";
export type { EnvironmentFailure } from "./environment-errors.js";
export type { DamagedIndex } from "./key-index-health.js";
export type { DroppedFragment } from "./deletion-files.js";
export type { StatsMismatch } from "./deep-stats.js";
export type { LayoutMismatch } from "./deep-layouts.js";

/**
 * Checks a table: opens every version's manifest (for a local table straight
 * from `_versions/`, so versions before a broken latest manifest are
 * reached; on an object store through the SDK, which needs the latest
 * manifest); for the newest readable version of a local table `stat`s and
 * opens every data, deletion and index file its manifest names; reads every
 * row of every fragment whose files open; opens every key index; with
 * `deep`, computes every row's stats again and compares every current
 * layout with its dataset, value by value; and looks for a pending widen
 * replay. A file this process cannot open for a reason that is not damage
 * (permission, descriptors, I/O, network) is reported in
 * `inaccessibleFiles`, and its fragment's rows are not read. With `repair`,
 * removes only what is proven damaged: moves the broken manifests aside (the
 * newest readable version becomes the latest), drops the fragments whose
 * deletion file is lost, deletes the unreadable rows, rebuilds the damaged
 * key indexes, completes the widen replay, and undoes the imports a killed
 * process left and breaks stale writer locks (README.md, Guarantees), then
 * checks again.
 *
 * @throws LanceNdError `TableNotFound` when there is no table; `InvalidInput`
 * for a repair that needs the `_versions/` files of an object store table;
 * `InvalidTable` for a widen replay record lance-nd did not write, or a
 * manifest the SDK opened whose file list does not read.
 * @example
 * const report = await check("data/ocean.lance", { deep: true });
 * if (!report.ok) console.log(report.unreadableRows, report.inaccessibleFiles, report.statsMismatches);
 */
export async function check(table: string | NdTable, options: CheckOptions = {}): Promise<CheckReport> {
  const uri = table instanceof NdTable ? table.uri : table;
  const storageOptions = table instanceof NdTable ? table.lance.storageOptions : options.storageOptions;
  const storage = storageOptions === undefined ? {} : { storageOptions };
  const deep = options.deep === true;
  const first = await inspect(uri, storage, deep);
  const report = first.report;
  if (options.repair !== true || report.ok) return report;
  // A manifest the store refused or failed to give: what the table holds is unknown, so nothing is repaired;
  // tags that could not be read: which imports are under way is unknown, so nothing is repaired either.
  if (report.inaccessibleFiles.some((f) => f.kind === "manifest" || f.kind === "tag")) return report;

  const folder = localTableFolder(uri);
  const broken = report.versions.filter((v) => !v.readable);
  if (broken.length > 0 && folder === undefined) {
    throw new LanceNdError(
      "InvalidInput",
      `check --repair: versions ${broken.map((v) => v.version).join(", ")} do not open, and moving manifests aside needs a local table`,
      { uri },
    );
  }
  if (report.newestReadableVersion === null) {
    throw new LanceNdError(
      "InvalidTable",
      "check --repair: no version of the table opens, so there is nothing to restore",
      { uri },
    );
  }
  const quarantined =
    folder === undefined
      ? []
      : quarantineManifests(
          folder,
          broken.map((v) => ({ version: v.version, file: v.file! })),
        );
  const imports = await repairLeftoverImports(uri, storage);
  if (imports.droppedTable) {
    report.repair = {
      quarantined,
      droppedFragments: [],
      deletedRows: [],
      rebuiltIndexes: [],
      widenReplay: null,
      imports,
      version: 0,
      ok: true,
    };
    return report;
  }
  const lost = lostDeletionFragments(first);
  const droppedFragments = folder === undefined ? [] : await dropFragments(uri, folder, storage, lost);
  // The rows were not read while a deletion file was lost: read them now.
  const current = droppedFragments.length === 0 ? first : await inspect(uri, storage, false);
  const latest = await openTable(uri, storage);
  try {
    const deletedRows = await deleteUnreadable(latest, current.report.unreadableRows);
    // Key indexes are queried only once every row reads (see readRows).
    const damagedIndexes =
      deletedRows.length === 0 ? current.report.damagedIndexes : (await keyIndexHealth(latest, current.files)).damaged;
    const rebuiltIndexes = await rebuildIndexes(latest, damagedIndexes);
    const widenReplay = await asSchemaChange(latest, () => completeWidenReplay(latest));
    const after = (await inspect(uri, storage, deep)).report;
    report.repair = {
      quarantined,
      droppedFragments,
      deletedRows,
      rebuiltIndexes,
      widenReplay,
      imports,
      version: after.latestVersion ?? report.newestReadableVersion,
      ok: after.ok,
    };
    return report;
  } finally {
    latest.sdk.close();
  }
}

/** A check's report, and the manifest layout of its checked version (local tables). */
interface Inspection {
  report: CheckReport;
  layout: ManifestLayout | undefined;
  files: FileProbe;
}

/** The check without repair. */
async function inspect(uri: string, storage: StorageOptions, deep: boolean): Promise<Inspection> {
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

/** The fragments of the checked version whose deletion file is damaged (not merely inaccessible). */
function lostDeletionFragments({ layout, report }: Inspection): FragmentLayout[] {
  const lost = new Set(report.damagedFiles.filter((f) => f.kind === "deletion").map((f) => f.fragment));
  return layout?.fragments.filter((f) => lost.has(f.id)) ?? [];
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

/**
 * Deletes `rows` by `_rowid`, a thousand at a time; returns them. Straight
 * through the SDK's delete: a count with a `_rowid` filter (as
 * `deleteWhere` does first) fails in Lance 12 (SDK-NOTES.md, section 13).
 */
async function deleteUnreadable(table: LanceTable, rows: readonly UnreadableRow[]): Promise<UnreadableRow[]> {
  for (let start = 0; start < rows.length; start += 1000) {
    const ids = rows.slice(start, start + 1000).map((r) => r.rowId);
    await sdkCall({ uri: table.uri, op: "delete" }, () => table.sdk.delete(`_rowid IN (${ids.join(", ")})`));
  }
  return [...rows];
}
