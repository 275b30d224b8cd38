/**
 * What `check` reports (README, "check"). Each kind of finding has its own
 * field; {@link isWhole} lists the ones that make a table not whole.
 */
import type { StorageOptions } from "../lance/table-open.js";
import type { FragmentHealth, UnreadableRow } from "../lance/row-health.js";
import type { PendingReplay } from "../widen/widen-replay.js";
import type { ImportRepair, LeftoverImport, StaleLock } from "../import-claims/leftover-imports.js";
import type { LayoutMismatch } from "./deep-layouts.js";
import type { StatsMismatch } from "./deep-stats.js";
import type { DroppedFragment } from "./deletion-files.js";
import type { DamagedFile, InaccessibleFile } from "./file-probe.js";
import type { DamagedIndex } from "./key-index-health.js";
import type { VersionHealth } from "./version-health.js";

/** Options of `check`. */
export interface CheckOptions extends StorageOptions {
  /**
   * Repair what the check proved damaged: move the manifests that do not
   * parse into `<table>/_lance_nd_quarantine/` (local tables), drop the
   * fragments whose deletion file is lost, delete the unreadable rows,
   * rebuild damaged key indexes and complete a pending widen replay; all
   * are listed in `repair`. Nothing is removed for a file this process
   * could not read (`inaccessibleFiles`).
   */
  repair?: boolean;
  /**
   * Also compute the stats of every row with stats again and report rows
   * whose values contradict them, and compare every current layout with its
   * dataset, value by value (README "Layouts").
   */
  deep?: boolean;
}

/** What a repair did. */
export interface CheckRepair {
  /** Where the manifests that did not parse went (their old versions are gone from the table). */
  quarantined: string[];
  /** The fragments removed because their deletion file was lost (their rows' deletions are unknown). */
  droppedFragments: DroppedFragment[];
  /** The rows deleted because they could not be read. */
  deletedRows: UnreadableRow[];
  /** The key indexes built again. */
  rebuiltIndexes: DamagedIndex[];
  /** The widen replay completed (README.md, Widen), or null. */
  widenReplay: PendingReplay | null;
  /** The leftover imports undone and the stale writer locks broken (README.md, Guarantees). */
  imports: ImportRepair;
  /** The latest version after the repair (0 when the repair removed the table a killed create left). */
  version: number;
  /** The check after the repair found nothing. */
  ok: boolean;
}

/** The result of `check`. */
export interface CheckReport {
  /** The table uri. */
  uri: string;
  /** True when nothing below is found: every manifest opens, every file and row of the checked version reads. */
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
  /** The files of the checked version that are missing, shorter than the manifest says, or do not decode (local tables). */
  damagedFiles: DamagedFile[];
  /**
   * The files (and rows) of the checked version this process could not read
   * for a reason that is not damage: permission, descriptors, I/O, network.
   * Their fragments' rows are not read and never removed.
   */
  inaccessibleFiles: InaccessibleFile[];
  /** The rows of the checked version that cannot be read, each proven damaged. */
  unreadableRows: UnreadableRow[];
  /** The key indexes that do not answer a query. */
  damagedIndexes: DamagedIndex[];
  /** With `deep`: the rows read whose values contradict their stats; null without `deep` or when no row could be read. */
  statsMismatches: StatsMismatch[] | null;
  /**
   * With `deep`: the regions of current layouts whose values are not their
   * dataset's (README "Layouts"); null without `deep` or when not every row
   * could be read. Stale layouts are not compared (reads never take them).
   */
  layoutMismatches: LayoutMismatch[] | null;
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
 * True when the report finds nothing: a version opens, every version opens,
 * and no finding list has an entry. `replayKnown` is false when the widen
 * replay record could not be read.
 */
export function isWhole(report: CheckReport, replayKnown: boolean): boolean {
  return (
    report.newestReadableVersion !== null &&
    report.versions.every((v) => v.readable) &&
    report.damagedFiles.length === 0 &&
    report.inaccessibleFiles.length === 0 &&
    report.unreadableRows.length === 0 &&
    report.damagedIndexes.length === 0 &&
    (report.statsMismatches ?? []).length === 0 &&
    (report.layoutMismatches ?? []).length === 0 &&
    report.pendingWidenReplay === null &&
    report.leftoverImports.length === 0 &&
    report.staleLocks.length === 0 &&
    replayKnown
  );
}
