import type { Schema } from "apache-arrow";
import { ndSchema, validateTableSchema, type TableLayout } from "@lance-nd/format";
import { LanceNdError } from "./errors.js";
import { checkWritable, markTable } from "./table-check.js";
import { parseOpenOptions } from "./open-options.js";
import { withPureErrors } from "./pure-errors.js";
import { countRows } from "./lance/table-read.js";
import type { LanceTable, StorageOptions } from "./lance/table-open.js";
import { listBranches, openTableOnBranch } from "./lance/table-refs.js";
import { currentVersion } from "./lance/table-versions.js";
import { readTableSchema } from "./lance/table-read.js";
import type { Expr } from "./read/expr.js";
import {
  checkoutView,
  compactFragments,
  deleteMatchingRows,
  listTableVersions,
  removeOldVersions,
  restoreAsLatest,
  userTags,
  type CleanupOptions,
  type CleanupResult,
  type CompactOptions,
  type CompactResult,
  type DeleteResult,
  type RestoreOptions,
  type Version,
} from "./versions/maintenance.js";
import {
  forkBranch,
  removeBranch,
  removeTag,
  tagVersion,
  type BranchInfo,
  type BranchOptions,
  type TagInfo,
} from "./versions/version-control.js";

/** Options of {@link open}. */
export interface OpenOptions extends StorageOptions {
  /** The branch to open (README.md, "Version control"); `main` by default. */
  branch?: string;
}

/**
 * An open lance-nd table: a Lance table whose schema is a valid lance-nd v1
 * table schema. Get one from {@link open}, `write`, `checkout` or
 * `createBranch`. Its methods are the operations on the table itself, as
 * on lancedb's `Table`: versions, tags, branches and maintenance; reads and
 * writes of nd data are functions that take it (`scan`, `dataset`,
 * `append`, `NdWriter.append`, `widen`...; README.md, "Methods and
 * functions").
 *
 * The handle tracks the latest version of the table (each call sees other
 * writers' commits), except a view from `checkout`, which is read-only.
 */
export class NdTable {
  #lance: LanceTable;
  #schema: Schema;
  #layout: TableLayout;
  /** The version the handle had just before it read `#schema`: the schema is of this version or a later one. */
  #schemaVersion: number;

  /** Get a table from {@link open}, `write`, `checkout` or `createBranch`; the constructor is private. */
  private constructor(lance: LanceTable, schema: Schema, layout: TableLayout, schemaVersion: number) {
    this.#lance = lance;
    this.#schema = schema;
    this.#layout = layout;
    this.#schemaVersion = schemaVersion;
    markTable(this);
  }

  /** The table uri, as given to {@link open} or `write`. */
  get uri(): string {
    return this.#lance.uri;
  }

  /** The branch the handle reads and writes (from `open(uri, { branch })` or `createBranch`); null for `main`. */
  get branch(): string | null {
    return this.#lance.branch;
  }

  /** True for a read-only view of an earlier version (from `checkout`). */
  get readOnly(): boolean {
    return this.#lance.pinnedVersion !== undefined;
  }

  /** The Lance table schema as of the last refresh (with stats columns and encoding keys). */
  get tableSchema(): Schema {
    return this.#schema;
  }

  /** The lance-nd layout of the table schema as of the last refresh. */
  get layout(): TableLayout {
    return this.#layout;
  }

  /** The nd schema: array columns and `__global_attrs__`, without stats columns and `lance-encoding:` keys. */
  get ndSchema(): Schema {
    return ndSchema(this.#schema);
  }

  /** @internal The wrapped Lance table. */
  get lance(): LanceTable {
    return this.#lance;
  }

  /** The version the handle reads: the latest, or the checked-out one. */
  async version(): Promise<number> {
    return currentVersion(this.#lance);
  }

  /** The number of rows (optionally matching a Lance SQL filter). */
  async countRows(filter?: string): Promise<number> {
    return countRows(this.#lance, filter);
  }

  /**
   * The versions of the table that cleanup has not removed, oldest first:
   * the number, the commit time, Lance's summary (`total_rows`, …) and
   * `halfImport`, set on a version an import of `main` made before its last
   * commit (it holds some of the import's rows), with the complete versions
   * around it. On a branch, its fork version and what came after.
   *
   * @example
   * for (const { version, timestamp } of await table.versions()) console.log(version, timestamp);
   */
  async versions(): Promise<Version[]> {
    return listTableVersions(this);
  }

  /**
   * A read-only view of an earlier version (a number or a tag): `scan`
   * reads it; each write or maintenance call on it fails with
   * `InvalidInput`. This handle still tracks the latest version (unlike
   * lancedb's `checkout`, which moves the handle itself).
   *
   * @throws LanceNdError `InvalidInput` for a version that does not exist;
   * `InvalidTable` when that version is not a lance-nd table.
   * @example
   * const before = await table.checkout(3);
   * const rows = await scan(before).toArray();
   */
  async checkout(version: number | string): Promise<NdTable> {
    return NdTable.fromLance(await checkoutView(this, version));
  }

  /**
   * Makes an earlier version (a number or a tag) the latest, in a new
   * commit with its content; later versions stay listed. Returns the new
   * version. A half-import version (`versions()`, `halfImport`) is refused
   * unless `options.force`. Span `lance_nd.restore`.
   *
   * @throws LanceNdError `InvalidInput` for a version that does not exist, a
   * half-import without `force`, or a read-only view.
   * @example
   * await table.restore("v1");
   */
  async restore(version: number | string, options: RestoreOptions = {}): Promise<number> {
    checkWritable(this, "restore");
    return restoreAsLatest(this, version, options);
  }

  /**
   * Deletes the rows that match `predicate`: nd-level SQL (checked and
   * quoted as `scan(...).filter`) or an `Expr`. A predicate that matches no
   * row commits nothing. Span `lance_nd.delete`.
   *
   * @throws LanceNdError `InvalidInput` for an unknown column, bad SQL or a
   * read-only view; `CommitConflict` when another commit got in the way.
   * @example
   * await table.delete(col("__global_attrs__.id").isIn(["a", "b"]));
   */
  async delete(predicate: string | Expr): Promise<DeleteResult> {
    checkWritable(this, "delete");
    return deleteMatchingRows(this, predicate);
  }

  /**
   * Merges small fragments and drops deleted rows, in new versions (Lance's
   * optimize commits two). Removes no old version; see
   * {@link NdTable.cleanupOldVersions}. Works after schema evolution and
   * with tagged versions. Span `lance_nd.compact`.
   *
   * @throws LanceNdError `InvalidInput` for options or a read-only view.
   */
  async compact(options: CompactOptions = {}): Promise<CompactResult> {
    checkWritable(this, "compact");
    return compactFragments(this, options);
  }

  /**
   * Removes the versions older than `olderThan` and the files only they
   * use. Lance compacts in the same call (there is no cleanup without it).
   * The latest version and each tagged version (and everything newer)
   * stay. A widen replay a killed widen left unfinished is completed first:
   * it reads versions the cleanup would remove (README.md, Widen). Span
   * `lance_nd.compact`.
   *
   * @throws LanceNdError `InvalidInput` for bad options or a read-only view;
   * `InvalidTable` for a widen replay record lance-nd did not write.
   * @example
   * await table.cleanupOldVersions({ olderThan: 7 * 24 * 3600 * 1000 }); // a week
   * await table.cleanupOldVersions({ olderThan: new Date("2025-01-01") });
   */
  async cleanupOldVersions(options: CleanupOptions): Promise<CleanupResult> {
    checkWritable(this, "cleanupOldVersions");
    return removeOldVersions(this, options);
  }

  /**
   * The tags of the table, by name: `{ name, version }`, the version of
   * `main` each names. `table.checkout(name)` reads one. The tags lance-nd
   * keeps for itself (the records of complete imports) are left out.
   *
   * @example
   * for (const { name, version } of await table.tags()) console.log(name, version);
   */
  async tags(): Promise<TagInfo[]> {
    return userTags(this);
  }

  /**
   * Names a version of `main` (the latest by default) `name`, for good:
   * cleanup keeps a tagged version, and `table.checkout(name)` reads it.
   * Tags name versions of `main` only: Lance records no branch with a tag
   * (a tag of a branch version would read as the same number on `main`), so
   * `tag` on a branch handle is refused. Returns the version tagged.
   *
   * @throws LanceNdError `InvalidInput` for a bad or existing name, a version
   * that does not exist, or a branch handle; the table is not changed.
   * @example
   * await table.tag("v1");        // the latest version
   * await table.tag("raw", 3);
   */
  async tag(name: string, version?: number): Promise<number> {
    return tagVersion(this, name, version);
  }

  /**
   * Removes the tag `name` (the version stays until cleanup removes it).
   *
   * @throws LanceNdError `InvalidInput` for a tag that does not exist.
   * @example
   * await table.untag("v1");
   */
  async untag(name: string): Promise<void> {
    return removeTag(this, name);
  }

  /**
   * The branches of the table other than `main`, by name: `{ name,
   * parentBranch, parentVersion }` (parentBranch null for `main`).
   *
   * @example
   * for (const b of await table.branches()) console.log(b.name, b.parentBranch ?? "main", b.parentVersion);
   */
  async branches(): Promise<BranchInfo[]> {
    return listBranches(this.#lance);
  }

  /**
   * Creates the branch `name` and returns a handle on it (`table.branch` is
   * the name of the branch a handle is on). Every lance-nd
   * call on that handle (write, append, NdWriter, scan, dataset, widen,
   * delete, compact, cleanupOldVersions, restore, setColumnDefaults) acts
   * on the branch only; `main` is never changed.
   *
   * @throws LanceNdError `InvalidInput` for a bad or existing name, a `from`
   * branch or version that does not exist; the table is not changed.
   * @example
   * const trial = await table.createBranch("reprocess");
   * await append(trial, batches);             // main reads as before
   * const old = await table.createBranch("from-v3", { from: 3 });
   */
  async createBranch(name: string, options: BranchOptions = {}): Promise<NdTable> {
    return NdTable.fromLance(await forkBranch(this, name, options));
  }

  /**
   * Removes the branch `name` and the versions only it uses (after the next
   * cleanup of its parent). `main` cannot be removed.
   *
   * @throws LanceNdError `InvalidInput` for `main`, a branch that does not
   * exist, or the branch of this handle.
   * @example
   * await table.deleteBranch("reprocess");
   */
  async deleteBranch(name: string): Promise<void> {
    return removeBranch(this, name);
  }

  /**
   * @internal Re-reads the table schema (after a schema change by this or
   * another writer) and checks it is still a lance-nd v1 table.
   */
  async refresh(): Promise<TableLayout> {
    const version = await currentVersion(this.#lance);
    const schema = await readTableSchema(this.#lance);
    this.#layout = checkedLayout(this.#lance.uri, schema);
    this.#schema = schema;
    this.#schemaVersion = version;
    return this.#layout;
  }

  /**
   * @internal {@link refresh} only when the version moved since the schema
   * was last read, for calls that only read it (`variables`, a scan): every change
   * to a Lance table is a new version, and a version check costs ~0.1 ms
   * where a schema read costs 2 ms, or 300 ms at 4,000 variables
   * (SDK-NOTES.md, section 24). Writes re-read the schema every time.
   */
  async refreshIfMoved(): Promise<TableLayout> {
    if ((await currentVersion(this.#lance)) === this.#schemaVersion) return this.#layout;
    return this.refresh();
  }

  /** @internal A handle on another Lance handle of the same table (e.g. a checked-out version). */
  static async fromLance(lance: LanceTable): Promise<NdTable> {
    const version = await currentVersion(lance);
    const schema = await readTableSchema(lance);
    return new NdTable(lance, schema, checkedLayout(lance.uri, schema), version);
  }
}

/**
 * Opens the lance-nd table at `uri` (a local path such as
 * `data/arrays.lance`, `file://`, `s3://bucket/path/t.lance`, `gs://`,
 * `az://`, or `memory://db/t.lance`), on `main` or on `options.branch`.
 *
 * @throws LanceNdError `InvalidInput` for a uri that is not a non-empty
 * string or bad options (naming each); `TableNotFound` when there is no
 * table; `InvalidTable` for a Lance table that is not a lance-nd v1 table
 * (no `lance_nd:format` key, another version, or columns that break the
 * layout); `InvalidInput` for a branch that does not exist.
 * @example
 * const table = await open("s3://bucket/ocean/sst.lance", { storageOptions: { region: "eu-west-1" } });
 */
export async function open(uri: string, options: OpenOptions = {}): Promise<NdTable> {
  return NdTable.fromLance(await openTableOnBranch(uri, parseOpenOptions(options, uri)));
}

function checkedLayout(uri: string, schema: Schema): TableLayout {
  try {
    return withPureErrors({ uri }, () => validateTableSchema(schema));
  } catch (err) {
    if (err instanceof LanceNdError) throw err;
    throw new LanceNdError("InvalidTable", `not a lance-nd table: ${String(err)}`, { uri, cause: err });
  }
}
