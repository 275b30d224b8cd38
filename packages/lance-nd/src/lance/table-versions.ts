import { LanceNdError } from "../errors.js";
import type { OptimizeStats } from "@lancedb/lancedb";
import { sdkCall } from "./sdk-call.js";
import { openSdkTable, type LanceTable } from "./table-open.js";
import { listTags } from "./table-refs.js";

/** One version of a table. */
export interface TableVersion {
  /** The version number, from 1. */
  version: number;
  /** The commit time. */
  timestamp: Date;
  /** Lance's summary of the version (`total_rows`, `total_fragments`, …). */
  metadata: Record<string, string>;
}

/** The versions of a table that cleanup has not removed, oldest first. */
export async function listVersions(table: LanceTable): Promise<TableVersion[]> {
  return sdkCall({ uri: table.uri, op: "versions" }, () => table.sdk.listVersions());
}

/** The version the handle reads: the latest it has seen, or the pinned one. */
export async function currentVersion(table: LanceTable): Promise<number> {
  return sdkCall({ uri: table.uri, op: "version" }, () => table.sdk.version());
}

/**
 * A read-only view of an earlier version (number or tag), as a new handle;
 * the given handle is not changed (lancedb's own `checkout` works in place).
 * Writes through the view fail with `InvalidInput`.
 *
 * @throws LanceNdError `InvalidInput` for a version or tag that does not exist.
 */
export async function checkoutVersion(table: LanceTable, version: number | string): Promise<LanceTable> {
  const op = `checkout ${String(version)}`;
  // A tag names a version of main (README.md, "Version control"): its view is of main, whatever branch `table` is on.
  const place = typeof version === "string" ? { ...table, branch: null } : table;
  const sdk = await openSdkTable(place, table.connection, op);
  try {
    await sdkCall({ uri: table.uri, op }, () => sdk.checkout(version));
  } catch (err) {
    sdk.close();
    throw err;
  }
  return { ...place, sdk, pinnedVersion: version };
}

/**
 * Makes an earlier version (number or tag) the latest, in a new commit, and
 * moves `table` to it. Returns the new version.
 *
 * @throws LanceNdError `InvalidInput` for a version that does not exist, or a tag on a branch handle.
 */
export async function restoreVersion(table: LanceTable, version: number | string): Promise<number> {
  if (typeof version === "string" && table.branch !== null) {
    throw new LanceNdError(
      "InvalidInput",
      `restore "${version}" on branch "${table.branch}": a tag names a version of main; restore a version of the branch (versions lists them)`,
      { uri: table.uri },
    );
  }
  const view = await checkoutVersion(table, version);
  try {
    await sdkCall({ uri: table.uri, op: "restore" }, () => view.sdk.restore());
  } finally {
    view.sdk.close();
  }
  await sdkCall({ uri: table.uri, op: "restore" }, () => table.sdk.checkoutLatest());
  return currentVersion(table);
}

/** What {@link deleteWhere} did. */
export interface DeleteOutcome {
  /** Rows deleted. */
  deleted: number;
  /** The table version after the call (unchanged when nothing matched). */
  version: number;
}

/**
 * Deletes the rows that match a Lance SQL predicate. A predicate that matches
 * no row commits nothing (lancedb's `delete` would still commit an empty version).
 *
 * @throws LanceNdError `InvalidInput` for a bad predicate.
 */
export async function deleteWhere(table: LanceTable, predicate: string): Promise<DeleteOutcome> {
  const context = { uri: table.uri, op: "delete" };
  const matching = await sdkCall(context, () => table.sdk.countRows(predicate));
  if (matching === 0) return { deleted: 0, version: await currentVersion(table) };
  const result = await sdkCall(context, () => table.sdk.delete(predicate));
  return { deleted: result.numDeletedRows, version: result.version };
}

/**
 * Compacts the table: merges small fragments and drops deleted rows, in a new
 * version. Removes no version (lancedb's `optimize` prunes versions older than
 * 7 days by default; here the cutoff is 1970).
 */
export async function compactTable(table: LanceTable): Promise<OptimizeStats> {
  return sdkCall({ uri: table.uri, op: "compact" }, () => table.sdk.optimize({ cleanupOlderThan: new Date(0) }));
}

/** Options of {@link cleanupVersions}. */
export interface CleanupOptions {
  /**
   * Also delete files younger than 7 days that no version lists. Only safe
   * when no other process writes to the table.
   */
  deleteUnverified?: boolean;
}

/**
 * Removes the versions older than `olderThanMs` milliseconds, and their
 * files; compacts first (lancedb has no cleanup without compaction). Tagged
 * versions are kept: the cutoff stops at the oldest tagged version, because
 * Lance refuses the whole cleanup when it would reach a tagged version.
 * The latest version is never removed.
 */
export async function cleanupVersions(
  table: LanceTable,
  olderThanMs: number,
  options: CleanupOptions = {},
): Promise<OptimizeStats> {
  const context = { uri: table.uri, op: "cleanup" };
  const tagged = new Set((await listTags(table)).map((tag) => tag.version));
  let cutoff = Date.now() - olderThanMs;
  if (tagged.size > 0) {
    for (const v of await listVersions(table)) {
      if (tagged.has(v.version)) cutoff = Math.min(cutoff, v.timestamp.getTime());
    }
  }
  return sdkCall(context, () =>
    table.sdk.optimize({ cleanupOlderThan: new Date(cutoff), deleteUnverified: options.deleteUnverified === true }),
  );
}
