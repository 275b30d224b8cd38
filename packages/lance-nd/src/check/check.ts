/**
 * `check`: what of a table can still be read (every manifest; every file,
 * row and key index of the newest readable version; with `deep`, every
 * row's values against its stats and every current layout against its
 * dataset), and `repair`: remove what is proven
 * damaged, each listed in the report (README, "check").
 */
import { NdTable } from "../table.js";
import { inspect } from "./inspect.js";
import type { CheckOptions, CheckReport } from "./report.js";
import { repairTable } from "./repair.js";

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
  if (options.repair !== true || first.report.ok) return first.report;
  return repairTable(uri, storage, deep, first);
}
