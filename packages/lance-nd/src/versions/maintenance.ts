/**
 * Maintenance of a table: delete rows, compact, clean up old versions, list,
 * check out and restore versions.
 */
import { z } from "zod";
import { isLanceNdError, LanceNdError } from "../errors.js";
import { Expr } from "../read/expr.js";
import { checkNdFilter } from "../read/nd-filter.js";
import { NdTable, checkTable, checkWritable } from "../table.js";
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

/** What {@link deleteRows} did. */
export interface DeleteResult {
  /** The rows deleted. */
  deleted: number;
  /** The table version after the call; unchanged when no row matched (no empty version is committed). */
  version: number;
}

/**
 * Deletes the rows that match `predicate`: nd-level SQL (checked and quoted
 * as `scan(...).filter`) or an {@link Expr}. A predicate that matches no row
 * commits nothing. Span `lance_nd.delete`.
 *
 * @throws LanceNdError `InvalidInput` for an unknown column, bad SQL or a
 * read-only view; `CommitConflict` when another commit got in the way.
 * @example
 * await deleteRows(table, col("__global_attrs__.id").isIn(["a", "b"]));
 */
export async function deleteRows(table: NdTable, predicate: string | Expr): Promise<DeleteResult> {
  checkWritable(table, "deleteRows");
  const sql = predicate instanceof Expr ? predicate.toSql() : predicate;
  return inSpan("lance_nd.delete", table.uri, async (span) => {
    const layout = await table.refresh();
    const result = await deleteWhere(table.lance, checkNdFilter(table.uri, layout, sql).sql);
    span.setAttribute("lance_nd.rows_deleted", result.deleted);
    return result;
  });
}

/**
 * Options of {@link compact}. lancedb 0.39's Node SDK exposes no compaction
 * settings (target rows per fragment and the like are Lance's defaults:
 * fragments of up to 1 Mi rows), so there is none yet; unknown keys fail.
 */
export type CompactOptions = Record<string, never>;

/** What {@link compact} did. */
export interface CompactResult {
  /** Fragments merged away. */
  fragmentsRemoved: number;
  /** New fragments written. */
  fragmentsAdded: number;
  /** The table version after the call. */
  version: number;
}

/**
 * Merges small fragments and drops deleted rows, in new versions (Lance's
 * optimize commits two). Removes no old version; see {@link cleanupOldVersions}.
 * Works after schema evolution and with tagged versions. Span `lance_nd.compact`.
 *
 * @throws LanceNdError `InvalidInput` for options or a read-only view.
 */
export async function compact(table: NdTable, options: CompactOptions = {}): Promise<CompactResult> {
  checkWritable(table, "compact");
  parse(z.strictObject({}), options, "compact options", table.uri);
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

/** Options of {@link cleanupOldVersions}. */
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

/** What {@link cleanupOldVersions} did. */
export interface CleanupResult {
  /** Versions removed. */
  versionsRemoved: number;
  /** Bytes of files removed. */
  bytesRemoved: number;
  /**
   * The tags that kept a version older than `olderThan` (Lance never removes
   * a tagged version), oldest version first: delete a tag (`untag`) to let
   * the next cleanup remove its version.
   */
  keptByTags: TagInfo[];
}

const cleanupSchema = z.strictObject({
  olderThan: z.union([
    z.number().finite().nonnegative(),
    z.date().refine((d) => !Number.isNaN(d.getTime()), "an invalid Date"),
  ]),
  deleteUnverified: z.boolean().optional(),
});

/**
 * Removes the versions older than `olderThan` and the files only they use.
 * Lance compacts in the same call (there is no cleanup without it). The
 * latest version and each tagged version (and everything newer) stay. A
 * widen replay a killed widen left unfinished is completed first: it reads
 * versions the cleanup would remove (README.md, Widen). Span
 * `lance_nd.compact`.
 *
 * @throws LanceNdError `InvalidInput` for bad options or a read-only view;
 * `InvalidTable` for a widen replay record lance-nd did not write.
 * @example
 * await cleanupOldVersions(table, { olderThan: 7 * 24 * 3600 * 1000 }); // a week
 * await cleanupOldVersions(table, { olderThan: new Date("2025-01-01") });
 */
export async function cleanupOldVersions(table: NdTable, options: CleanupOptions): Promise<CleanupResult> {
  checkWritable(table, "cleanupOldVersions");
  const { olderThan, deleteUnverified } = parse(cleanupSchema, options, "cleanupOldVersions options", table.uri);
  const ageMs = olderThan instanceof Date ? Math.max(0, Date.now() - olderThan.getTime()) : olderThan;
  return inSpan("lance_nd.compact", table.uri, async () => {
    // The versions a pending widen replay reads must not go first (README.md, Widen).
    await asSchemaChange(table.lance, () => completeWidenReplay(table.lance));
    const cutoff = Date.now() - ageMs;
    const stats = await cleanupVersions(table.lance, ageMs, { deleteUnverified: deleteUnverified === true });
    await table.refresh();
    return {
      versionsRemoved: stats.prune.oldVersionsRemoved,
      bytesRemoved: stats.prune.bytesRemoved,
      keptByTags: await tagsKeeping(table, cutoff),
    };
  });
}

/** The tags whose versions are older than `cutoff` (ms since the epoch) and not the latest: the versions cleanup kept for them. */
async function tagsKeeping(table: NdTable, cutoff: number): Promise<TagInfo[]> {
  const left = await listVersions(table.lance);
  const latest = left.at(-1)?.version;
  const old = new Set(left.filter((v) => v.timestamp.getTime() < cutoff && v.version !== latest).map((v) => v.version));
  const kept = (await listTags(table.lance)).filter((tag) => old.has(tag.version));
  return kept.sort((a, b) => a.version - b.version || a.name.localeCompare(b.name));
}

/** One version of a table. */
export type Version = TableVersion;

/**
 * The versions of the table that cleanup has not removed, oldest first: the
 * number, the commit time and Lance's summary (`total_rows`, …).
 */
export async function versions(table: NdTable): Promise<Version[]> {
  checkTable(table, "versions");
  return listVersions(table.lance);
}

/**
 * A read-only view of an earlier version (a number or a tag). `scan` reads
 * it; each write or maintenance call on it fails with `InvalidInput`. `table`
 * itself still tracks the latest version.
 *
 * @throws LanceNdError `InvalidInput` for a version that does not exist;
 * `InvalidTable` when that version is not a lance-nd table.
 * @example
 * const before = await checkout(table, 3);
 * const rows = await scan(before).toArray();
 */
export async function checkout(table: NdTable, version: number | string): Promise<NdTable> {
  checkTable(table, "checkout");
  const wanted = checkVersion(table, version);
  return NdTable.fromLance(await knownTag(table, wanted, () => checkoutVersion(table.lance, wanted)));
}

/**
 * Makes an earlier version (a number or a tag) the latest, in a new commit
 * with its content; later versions stay listed. Returns the new version.
 * Span `lance_nd.restore`.
 *
 * @throws LanceNdError `InvalidInput` for a version that does not exist or a read-only view.
 */
export async function restore(table: NdTable, version: number | string): Promise<number> {
  checkWritable(table, "restore");
  const wanted = checkVersion(table, version);
  return inSpan(
    "lance_nd.restore",
    table.uri,
    async () => {
      const restored = await knownTag(table, wanted, () => restoreVersion(table.lance, wanted));
      await table.refresh();
      return restored;
    },
    { "lance_nd.version": String(wanted) },
  );
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

function parse<T>(schema: z.ZodType<T>, input: unknown, what: string, uri: string): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
  throw new LanceNdError("InvalidInput", `bad ${what}: ${issues}`, { uri, cause: result.error });
}
