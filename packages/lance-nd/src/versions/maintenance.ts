/**
 * Maintenance of a table: delete rows, compact, clean up old versions, check
 * out and restore versions. The bodies of `NdTable`'s methods of those names
 * (`delete`, `compact`, `cleanupOldVersions`, `checkout`, `restore`), which
 * check the handle first (README.md, "Methods and functions").
 */
import { parseOptions } from "@lance-nd/casting/coded-error";
import { z } from "zod";
import { isLanceNdError, LanceNdError } from "../errors.js";
import { lanceNdOptionsError } from "../option-errors.js";
import { Expr } from "../read/expr.js";
import { checkNdFilter } from "../read/nd-filter.js";
import type { LanceTable } from "../lance/table-open.js";
import type { NdTable } from "../table.js";
import { inSpan } from "../tracing.js";
import { asSchemaChange } from "../widen/schema-lock.js";
import { completeWidenReplay } from "../widen/widen-replay.js";
import {
  checkoutVersion,
  cleanupVersions,
  compactTable,
  currentVersion,
  deleteWhere,
  listVersions,
  restoreVersion,
  type TableVersion,
} from "../lance/table-versions.js";
import { listTags, type TagInfo } from "../lance/table-refs.js";
import { sdkCall } from "../lance/sdk-call.js";
import { type HalfImport, halfImportOf, importRanges, isImportRecordTag, recordsToDrop } from "./import-record.js";

/** What `table.delete` (alias `deleteRows`) did. */
export interface DeleteResult {
  /** The rows deleted. */
  deleted: number;
  /** The table version after the call; unchanged when no row matched (no empty version is committed). */
  version: number;
}

/** Deletes the rows of `table` that match `predicate` (`NdTable.delete`). */
export async function deleteMatchingRows(table: NdTable, predicate: string | Expr): Promise<DeleteResult> {
  const sql = predicate instanceof Expr ? predicate.toSql() : predicate;
  return inSpan("lance_nd.delete", table.uri, async (span) => {
    const layout = await table.refresh();
    const result = await deleteWhere(table.lance, checkNdFilter(table.uri, layout, sql).sql);
    span.setAttribute("lance_nd.rows_deleted", result.deleted);
    return result;
  });
}

/**
 * Options of `table.compact`. lancedb 0.39's Node SDK exposes no compaction
 * settings (target rows per fragment and the like are Lance's defaults:
 * fragments of up to 1 Mi rows), so there is none yet; unknown keys fail.
 */
export type CompactOptions = Record<string, never>;

/** What `table.compact` did. */
export interface CompactResult {
  /** Fragments merged away. */
  fragmentsRemoved: number;
  /** New fragments written. */
  fragmentsAdded: number;
  /** The table version after the call. */
  version: number;
}

/** Merges the small fragments of `table` (`NdTable.compact`). */
export async function compactFragments(table: NdTable, options: CompactOptions): Promise<CompactResult> {
  parseOptions(z.strictObject({}), options, "compact", lanceNdOptionsError(table.uri));
  return inSpan("lance_nd.compact", table.uri, async () => {
    const stats = await compactTable(table.lance);
    await table.refresh();
    return {
      fragmentsRemoved: stats.compaction.fragmentsRemoved,
      fragmentsAdded: stats.compaction.fragmentsAdded,
      version: await currentVersion(table.lance),
    };
  });
}

/** Options of `table.cleanupOldVersions`. */
export interface CleanupOptions {
  /** Remove the versions older than this: an age in milliseconds, or a Date. */
  olderThan: number | Date;
  /**
   * Also delete unreferenced files younger than 7 days. Only safe when no
   * other process writes to the table (Lance keeps them by default because
   * an ongoing commit may be about to use them).
   */
  deleteUnverified?: boolean;
}

/** What `table.cleanupOldVersions` did. */
export interface CleanupResult {
  /** Versions removed. */
  versionsRemoved: number;
  /** Bytes of files removed. */
  bytesRemoved: number;
  /**
   * The tags that kept a version older than `olderThan` (Lance never removes
   * a tagged version), oldest version first: delete a tag (`table.untag`) to let
   * the next cleanup remove its version.
   */
  keptByTags: TagInfo[];
}

const cleanupSchema = z.strictObject({
  olderThan: z.union(
    [
      z.number().finite().nonnegative("expected milliseconds of at least 0"),
      z.date().refine((d) => !Number.isNaN(d.getTime()), "an invalid Date"),
    ],
    { error: "expected milliseconds (a number of at least 0) or a Date" },
  ),
  deleteUnverified: z.boolean().optional(),
});

/** Removes the versions of `table` older than `options.olderThan` (`NdTable.cleanupOldVersions`). */
export async function removeOldVersions(table: NdTable, options: CleanupOptions): Promise<CleanupResult> {
  const { olderThan, deleteUnverified } = parseOptions(
    cleanupSchema,
    options,
    "cleanupOldVersions",
    lanceNdOptionsError(table.uri),
  );
  const ageMs = olderThan instanceof Date ? Math.max(0, Date.now() - olderThan.getTime()) : olderThan;
  return inSpan("lance_nd.compact", table.uri, async () => {
    // The versions a pending widen replay reads must not go first (README.md, Widen).
    await asSchemaChange(table.lance, () => completeWidenReplay(table.lance));
    const cutoff = Date.now() - ageMs;
    if (table.branch === null) await dropOldImportRecords(table, cutoff);
    const stats = await cleanupVersions(table.lance, ageMs, { deleteUnverified: deleteUnverified === true });
    await table.refresh();
    return {
      versionsRemoved: stats.prune.oldVersionsRemoved,
      bytesRemoved: stats.prune.bytesRemoved,
      keptByTags: await tagsKeeping(table, cutoff),
    };
  });
}

/**
 * Deletes the records of complete imports (import-record.ts) whose versions
 * a cleanup at `cutoff` (ms since the epoch) removes: a tagged version
 * would stay, and the record of a version that is gone says nothing.
 */
async function dropOldImportRecords(table: NdTable, cutoff: number): Promise<void> {
  const versions = await listVersions(table.lance);
  const tags = await listTags(table.lance);
  const userTagged = new Set(tags.filter((t) => !isImportRecordTag(t.name)).map((t) => t.version));
  const latest = versions.at(-1)?.version;
  const staying = new Set(
    versions
      .filter((v) => v.timestamp.getTime() >= cutoff || v.version === latest || userTagged.has(v.version))
      .map((v) => v.version),
  );
  const drop = recordsToDrop(tags, staying);
  if (drop.length === 0) return;
  const manager = await sdkCall({ uri: table.uri, op: "tags" }, () => table.lance.sdk.tags());
  for (const name of drop) await sdkCall({ uri: table.uri, op: "tags" }, () => manager.delete(name));
}

/** The tags whose versions are older than `cutoff` (ms since the epoch) and not the latest: the versions cleanup kept for them. */
async function tagsKeeping(table: NdTable, cutoff: number): Promise<TagInfo[]> {
  const left = await listVersions(table.lance);
  const latest = left.at(-1)?.version;
  const old = new Set(left.filter((v) => v.timestamp.getTime() < cutoff && v.version !== latest).map((v) => v.version));
  const kept = (await listTags(table.lance)).filter((tag) => old.has(tag.version) && !isImportRecordTag(tag.name));
  return kept.sort((a, b) => a.version - b.version || a.name.localeCompare(b.name));
}

/** One version of a table: the number, the commit time and Lance's summary (`total_rows`, …). */
export interface Version extends TableVersion {
  /**
   * Set when the version is a half-import: made by an import of `main`
   * between its start and its last commit, so it holds some of that
   * import's rows (README.md, "Version control"), with the complete
   * versions around it; null otherwise (and on a branch, whose imports
   * are not recorded).
   */
  halfImport: HalfImport | null;
}

export type { HalfImport };

/** The versions of `table` that cleanup has not removed, oldest first, each with its {@link Version.halfImport} (`NdTable.versions`). */
export async function listTableVersions(table: NdTable): Promise<Version[]> {
  const versions = await listVersions(table.lance);
  const ranges = table.branch === null ? importRanges(await listTags(table.lance)) : [];
  const numbers = versions.map((v) => v.version);
  return versions.map((v) => ({ ...v, halfImport: halfImportOf(v.version, ranges, numbers) }));
}

/** The tags of `table` that users made (`NdTable.tags`): the records of complete imports are left out. */
export async function userTags(table: NdTable): Promise<TagInfo[]> {
  return (await listTags(table.lance)).filter((tag) => !isImportRecordTag(tag.name));
}

/** Options of `table.restore`. */
export interface RestoreOptions {
  /** Restore a half-import version too (README.md, "Version control"); default false. */
  force?: boolean;
}

/** The Lance handle of a read-only view of `version` (a number or a tag) of `table` (`NdTable.checkout`). */
export async function checkoutView(table: NdTable, version: number | string): Promise<LanceTable> {
  const wanted = checkVersion(table, version);
  return knownTag(table, wanted, () => checkoutVersion(table.lance, wanted));
}

/**
 * Makes `version` (a number or a tag) of `table` the latest (`NdTable.restore`); returns the new version.
 * A half-import version is `InvalidInput` naming the complete versions around it, unless `options.force`.
 */
export async function restoreAsLatest(
  table: NdTable,
  version: number | string,
  options: RestoreOptions = {},
): Promise<number> {
  const wanted = checkVersion(table, version);
  return inSpan(
    "lance_nd.restore",
    table.uri,
    async () => {
      if (options.force !== true) await refuseHalfImport(table, wanted);
      const restored = await knownTag(table, wanted, () => restoreVersion(table.lance, wanted));
      await table.refresh();
      return restored;
    },
    { "lance_nd.version": String(wanted) },
  );
}

/** `InvalidInput` when `version` (a number or a tag) of `table` is a half-import, naming the complete versions around it. */
async function refuseHalfImport(table: NdTable, version: number | string): Promise<void> {
  const number =
    typeof version === "number" ? version : (await userTags(table)).find((t) => t.name === version)?.version;
  const half = (await listTableVersions(table)).find((v) => v.version === number)?.halfImport;
  if (half === null || half === undefined) return;
  const named = typeof version === "number" ? `version ${version}` : `tag "${version}" (version ${number})`;
  throw new LanceNdError(
    "InvalidInput",
    `${named} is ${describeHalfImport(half)}; restore a complete version instead, or force it`,
    {
      uri: table.uri,
    },
  );
}

/**
 * What a half-import version is, for messages: `half an import (some of its
 * rows); the complete versions around it are 3 and 7`.
 */
export function describeHalfImport(half: HalfImport): string {
  const around = [half.completeBefore, half.completeAfter].filter((v): v is number => v !== null);
  const named =
    around.length === 0
      ? "no complete version is left around it"
      : `the complete version${around.length === 1 ? "" : "s"} around it ${around.length === 1 ? "is" : "are"} ${around.join(" and ")}`;
  return `half an import (some of its rows); ${named}`;
}

function checkVersion(table: NdTable, version: unknown): number | string {
  if (
    (typeof version === "number" && Number.isSafeInteger(version) && version >= 1) ||
    (typeof version === "string" && version !== "")
  ) {
    return version;
  }
  throw new LanceNdError(
    "InvalidInput",
    `bad version ${String(version)}: expected a version number (from 1) or a tag`,
    { uri: table.uri },
  );
}

/** Runs `work`; the SDK's error for a missing tag ("Ref not found", classified as a schema error) becomes `InvalidInput`. */
async function knownTag<T>(table: NdTable, version: number | string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (typeof version === "string" && isLanceNdError(err, "SchemaMismatch") && /Ref not found/.test(err.message)) {
      throw new LanceNdError("InvalidInput", `no tag "${version}"`, { uri: table.uri, cause: err });
    }
    throw err;
  }
}
