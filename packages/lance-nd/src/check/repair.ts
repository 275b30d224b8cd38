/**
 * `check`'s repair: removes only what the check proved damaged (broken
 * manifests moved aside, fragments whose deletion file is lost, unreadable
 * rows, damaged key indexes, a pending widen replay, what killed imports
 * left), then checks again (README, "check").
 */
import { LanceNdError } from "../errors.js";
import type { FragmentLayout } from "../lance/manifest-layout.js";
import type { UnreadableRow } from "../lance/row-health.js";
import { sdkCall } from "../lance/sdk-call.js";
import { openTable, type LanceTable, type StorageOptions } from "../lance/table-open.js";
import { localTableFolder, quarantineManifests } from "../lance/version-files.js";
import { asSchemaChange } from "../widen/schema-lock.js";
import { completeWidenReplay } from "../widen/widen-replay.js";
import { repairLeftoverImports } from "../import-claims/leftover-imports.js";
import { dropFragments } from "./deletion-files.js";
import { inspect, type Inspection } from "./inspect.js";
import { keyIndexHealth, rebuildIndexes } from "./key-index-health.js";
import type { CheckRepair, CheckReport } from "./report.js";
import type { VersionHealth } from "./version-health.js";

/**
 * Repairs the table at `uri` after its check `first` found damage; returns
 * `first`'s report with its `repair` set. Repairs nothing while a manifest
 * or a tag could not be read.
 *
 * @throws LanceNdError `InvalidInput` when versions do not open on an object
 * store table (moving manifests aside needs a local table); `InvalidTable`
 * when no version opens.
 */
export async function repairTable(
  uri: string,
  storage: StorageOptions,
  deep: boolean,
  first: Inspection,
): Promise<CheckReport> {
  const report = first.report;
  // A manifest the store refused or failed to give: what the table holds is unknown, so nothing is repaired;
  // tags that could not be read: which imports are under way is unknown, so nothing is repaired either.
  if (report.inaccessibleFiles.some((f) => f.kind === "manifest" || f.kind === "tag")) return report;

  const folder = localTableFolder(uri);
  const broken = report.versions.filter((v) => !v.readable);
  const restored = restoredVersion(uri, report, folder, broken);
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
  const latest = await repairLatestVersion(uri, storage, current);
  const after = (await inspect(uri, storage, deep)).report;
  report.repair = {
    quarantined,
    droppedFragments,
    deletedRows: latest.deletedRows,
    rebuiltIndexes: latest.rebuiltIndexes,
    widenReplay: latest.widenReplay,
    imports,
    version: after.latestVersion ?? restored,
    ok: after.ok,
  };
  return report;
}

/**
 * The version a repair restores: the newest readable one, made the latest
 * by moving the `broken` manifests aside.
 *
 * @throws LanceNdError `InvalidInput` when manifests are to be moved aside
 * on a table with no local `folder`; `InvalidTable` when no version opens.
 */
function restoredVersion(
  uri: string,
  report: CheckReport,
  folder: string | undefined,
  broken: readonly VersionHealth[],
): number {
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
  return report.newestReadableVersion;
}

/**
 * Repairs the rows of the latest version as `current` checked it: deletes
 * the unreadable rows, rebuilds the damaged key indexes and completes a
 * pending widen replay.
 */
async function repairLatestVersion(
  uri: string,
  storage: StorageOptions,
  current: Inspection,
): Promise<Pick<CheckRepair, "deletedRows" | "rebuiltIndexes" | "widenReplay">> {
  const latest = await openTable(uri, storage);
  try {
    const deletedRows = await deleteUnreadable(latest, current.report.unreadableRows);
    // Key indexes are queried only once every row reads (inspect.ts, readRows).
    const damagedIndexes =
      deletedRows.length === 0 ? current.report.damagedIndexes : (await keyIndexHealth(latest, current.files)).damaged;
    const rebuiltIndexes = await rebuildIndexes(latest, damagedIndexes);
    const widenReplay = await asSchemaChange(latest, () => completeWidenReplay(latest));
    return { deletedRows, rebuiltIndexes, widenReplay };
  } finally {
    latest.sdk.close();
  }
}

/** The fragments of the checked version whose deletion file is damaged (not merely inaccessible). */
function lostDeletionFragments({ layout, report }: Inspection): FragmentLayout[] {
  const lost = new Set(report.damagedFiles.filter((f) => f.kind === "deletion").map((f) => f.fragment));
  return layout?.fragments.filter((f) => lost.has(f.id)) ?? [];
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
