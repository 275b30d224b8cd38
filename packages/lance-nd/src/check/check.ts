/**
 * `check`: what of a table can still be read (every manifest, every row of
 * the newest readable version), and `repair`: make it whole again by moving
 * broken manifests aside, deleting unreadable rows and completing a widen
 * replay a killed widen left, each listed in the report (README, "check").
 */
import { isLanceNdError, LanceNdError } from "../errors.js";
import { rowHealth, type FragmentHealth, type UnreadableRow } from "../lance/row-health.js";
import { openTable, type LanceTable, type StorageOptions } from "../lance/table-open.js";
import { sdkCall } from "../lance/sdk-call.js";
import { checkoutVersion, listVersions } from "../lance/table-versions.js";
import { localTableFolder, manifestFiles, openVersionView, quarantineManifests } from "../lance/version-files.js";
import { asSchemaChange } from "../widen/schema-lock.js";
import { NdTable } from "../table.js";
import { completeWidenReplay, findPendingReplay, type PendingReplay } from "../widen/widen-replay.js";
import {
  importLeftovers,
  repairLeftoverImports,
  type ImportRepair,
  type LeftoverImport,
  type StaleLock,
} from "../write/leftover-imports.js";

export type { FragmentHealth, UnreadableRow } from "../lance/row-health.js";

/** Options of {@link check}. */
export interface CheckOptions extends StorageOptions {
  /**
   * Repair what the check finds: move the manifests that do not parse into
   * `<table>/_lance_nd_quarantine/` (local tables), then delete the
   * unreadable rows of the latest version, and complete a pending widen
   * replay; all are listed in `repair`.
   */
  repair?: boolean;
}

/** One version of the table: whether its manifest opens. */
export interface VersionHealth {
  /** The version number. */
  version: number;
  /** True when the SDK opens its manifest. */
  readable: boolean;
  /** Why it does not open. */
  error?: string;
  /** The manifest file in `_versions/` (local tables). */
  file?: string;
}

/** What a repair did. */
export interface CheckRepair {
  /** Where the manifests that did not parse went (their old versions are gone from the table). */
  quarantined: string[];
  /** The rows deleted because they could not be read. */
  deletedRows: UnreadableRow[];
  /** The widen replay completed (README.md, Widen), or null. */
  widenReplay: PendingReplay | null;
  /** The leftover imports undone and the stale writer locks broken (README.md, Guarantees). */
  imports: ImportRepair;
  /** The latest version after the repair (0 when the repair removed the table a killed create left). */
  version: number;
  /** The check after the repair found nothing. */
  ok: boolean;
}

/** The result of {@link check}. */
export interface CheckReport {
  /** The table uri. */
  uri: string;
  /** True when every manifest opens and every row of the checked version reads. */
  ok: boolean;
  /** The newest version with a manifest file (readable or not); null when it is unknown. */
  latestVersion: number | null;
  /** The newest version whose manifest opens; null when none does. */
  newestReadableVersion: number | null;
  /** Every version, newest first. */
  versions: VersionHealth[];
  /** The version whose rows were read (the newest readable one), or null. */
  checkedVersion: number | null;
  /** The live rows of the checked version. */
  rows: number;
  /** The fragments of the checked version. */
  fragments: FragmentHealth[];
  /** The rows of the checked version that cannot be read. */
  unreadableRows: UnreadableRow[];
  /**
   * The replay of a widen's rewrite that a killed widen left unfinished: the
   * latest version lacks the rows other writers committed between versions
   * `read` and `overwrite` (README.md, Widen); `repair` completes it.
   */
  pendingWidenReplay: PendingReplay | null;
  /** Imports that did not end and whose process does not run (README.md, Guarantees); `repair` undoes them. */
  leftoverImports: LeftoverImport[];
  /** Writer locks no running import holds (README.md, Guarantees); `repair` breaks them. */
  staleLocks: StaleLock[];
  /** What was not checked, and why (e.g. older versions of an object store table whose latest manifest is broken). */
  notes: string[];
  /** What `repair: true` did; null without repair or when nothing needed it. */
  repair: CheckRepair | null;
}

/**
 * Checks a table: opens every version's manifest (for a local table straight
 * from `_versions/`, so versions before a broken latest manifest are
 * reached; on an object store through the SDK, which needs the latest
 * manifest), then reads every row of every fragment of the newest readable
 * version, and looks for a pending widen replay. With `repair`, moves the
 * broken manifests aside (the newest readable version becomes the latest),
 * deletes the unreadable rows and completes the widen replay, then checks
 * again.
 *
 * @throws LanceNdError `TableNotFound` when there is no table; `InvalidInput`
 * for a repair that needs the `_versions/` files of an object store table;
 * `InvalidTable` for a widen replay record lance-nd did not write.
 * @example
 * const report = await check("data/ocean.lance");
 * if (!report.ok) console.log(report.unreadableRows, report.newestReadableVersion);
 */
export async function check(table: string | NdTable, options: CheckOptions = {}): Promise<CheckReport> {
  const uri = table instanceof NdTable ? table.uri : table;
  const storageOptions = table instanceof NdTable ? table.lance.storageOptions : options.storageOptions;
  const storage = storageOptions === undefined ? {} : { storageOptions };
  const report = await inspect(uri, storage);
  if (options.repair !== true || report.ok) return report;

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
    report.repair = { quarantined, deletedRows: [], widenReplay: null, imports, version: 0, ok: true };
    return report;
  }
  const latest = await openTable(uri, storage);
  try {
    const deletedRows = await deleteUnreadable(latest, report.unreadableRows);
    const widenReplay = await asSchemaChange(latest, () => completeWidenReplay(latest));
    const after = await inspect(uri, storage);
    report.repair = {
      quarantined,
      deletedRows,
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

/** The check without repair. */
async function inspect(uri: string, storage: StorageOptions): Promise<CheckReport> {
  const folder = localTableFolder(uri);
  const notes: string[] = [];
  const versions = folder === undefined ? await remoteVersions(uri, storage, notes) : await localVersions(uri, folder);
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
    unreadableRows: [],
    pendingWidenReplay: null,
    leftoverImports: [],
    staleLocks: [],
    notes,
    repair: null,
  };
  let replayKnown = true;
  if (newest !== undefined) {
    const { table, close } = await openVersion(uri, storage, folder, newest, newest === versions[0]);
    try {
      const health = await rowHealth(table);
      report.checkedVersion = newest.version;
      report.fragments = health.fragments;
      report.unreadableRows = health.unreadableRows;
      report.rows = health.fragments.reduce((n, f) => n + f.rows, 0);
      if (newest === versions[0]) replayKnown = await notePendingReplay(table, report);
      if (newest === versions[0]) Object.assign(report, await importLeftovers(table));
    } finally {
      close();
    }
  }
  report.ok =
    newest !== undefined &&
    versions.every((v) => v.readable) &&
    report.unreadableRows.length === 0 &&
    report.pendingWidenReplay === null &&
    report.leftoverImports.length === 0 &&
    report.staleLocks.length === 0 &&
    replayKnown;
  return report;
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

/** Every manifest of a local table, newest first, each opened on its own. */
async function localVersions(uri: string, folder: string): Promise<VersionHealth[]> {
  const out: VersionHealth[] = [];
  for (const manifest of manifestFiles(uri, folder)) {
    try {
      (await openVersionView(uri, folder, manifest)).close();
      out.push({ version: manifest.version, readable: true, file: manifest.file });
    } catch (err) {
      if (!isLanceNdError(err)) throw err;
      out.push({ version: manifest.version, readable: false, error: withoutPlace(err, uri), file: manifest.file });
    }
  }
  return out;
}

/** The versions the SDK lists, newest first, each checked out; none when the latest manifest does not open. */
async function remoteVersions(uri: string, storage: StorageOptions, notes: string[]): Promise<VersionHealth[]> {
  let table: LanceTable;
  try {
    table = await openTable(uri, storage);
  } catch (err) {
    if (!isLanceNdError(err) || err.code === "TableNotFound") throw err;
    notes.push(
      `the latest manifest does not open (${err.message}); on an object store older versions are reached only through it`,
    );
    return [];
  }
  try {
    const out: VersionHealth[] = [];
    for (const { version } of (await listVersions(table)).reverse()) {
      try {
        (await checkoutVersion(table, version)).sdk.close();
        out.push({ version, readable: true });
      } catch (err) {
        if (!isLanceNdError(err)) throw err;
        out.push({ version, readable: false, error: withoutPlace(err, uri) });
      }
    }
    return out;
  } finally {
    table.sdk.close();
  }
}

/** A handle on one readable version: the table itself for the latest, a view of `_versions/` for an older one (local tables). */
async function openVersion(
  uri: string,
  storage: StorageOptions,
  folder: string | undefined,
  version: VersionHealth,
  isLatest: boolean,
): Promise<{ table: LanceTable; close(): void }> {
  if (folder !== undefined && !isLatest)
    return openVersionView(uri, folder, { version: version.version, file: version.file! });
  const latest = await openTable(uri, storage);
  return { table: latest, close: () => latest.sdk.close() };
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

/** The message of `err` without the `table "<uri>": ` the report already says. */
function withoutPlace(err: LanceNdError, uri: string): string {
  return err.message.replace(`table "${uri}": `, "");
}
