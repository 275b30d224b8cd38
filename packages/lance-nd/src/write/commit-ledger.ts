/**
 * The commit ledger (README.md, "Commit ledger"): every lance-nd operation
 * that takes more than one commit records its commits here, and a failed
 * operation undoes them here, in one more commit.
 *
 * Isolation: read committed. Each commit is visible to readers (and to other
 * writers) as soon as it lands; the operation as a whole is not atomic.
 * When it fails, the ledger removes the rows of its appends by
 * `_row_created_at_version` (stable row ids), drops a table it created and
 * that holds nothing else, or restores the version an overwrite replaced.
 * Rows other writers committed meanwhile stay, except after an overwrite
 * (the restore brings back the replaced version, as the overwrite itself
 * replaced everything). When the undo cannot complete, the error is a
 * {@link RollbackIncompleteError} naming what is left and the one command
 * that undoes it.
 *
 * An operation whose last commit removes rows its appends replace
 * (`replaceRows`, `import --mode replace`: append at version v, then delete
 * the replaced rows created before v) is settled once that delete lands:
 * nothing is undone after it, since undoing the append would then leave
 * neither copy. A reader sees both copies between the two commits, never
 * none; a process killed between them leaves both, and the next replace of
 * the same rows clears them (its delete takes every copy created before its
 * own append).
 */
import type { LanceNdError } from "../errors.js";
import { dropTable, type LanceTable } from "../lance/table-open.js";
import { countRows } from "../lance/table-read.js";
import { deleteWhere, restoreVersion } from "../lance/table-versions.js";
import { RollbackIncompleteError, type LeftBehind } from "../lance/rollback-error.js";

/** One recorded append: its version and how many rows it committed. */
interface RecordedAppend {
  version: number;
  rows: number;
}

/** How to undo what a failed rollback left: the parts of {@link LeftBehind} that are not counts. */
type Undo = Omit<LeftBehind, "versions" | "rows">;

/** What {@link CommitLedger.rollBack} did to the table. */
export type RollbackOutcome = "nothing" | "removed" | "dropped" | "restored";

/** The commits of one multi-commit operation on one table, and their undo. */
export class CommitLedger {
  readonly #uri: string;
  #branch: string | null = null;
  readonly #replacedVersion: number | undefined;
  readonly #appends: RecordedAppend[] = [];
  /** How many of the first appends a rewrite of the table re-created (their rows now read as created by the rewrite). */
  #rewrittenAppends = 0;
  #createdTable = false;
  #stableRowIds: boolean | undefined;
  /** Rows created before the first recorded append, counted then (a rewrite of the table leaves none). */
  #olderRows = 0;
  /** The operation's last commit landed: nothing is undone any more. */
  #settled = false;

  /**
   * A ledger of an operation on the table at `uri`. `replacedVersion` is,
   * for an overwrite of an existing table, its version before the overwrite:
   * the rollback restores it.
   */
  constructor(uri: string, replacedVersion?: number) {
    this.#uri = uri;
    this.#replacedVersion = replacedVersion;
  }

  /**
   * The versions of the appends recorded so far, lowest first. Adds in flight
   * at once can commit in one order and be recorded in another, so the
   * ledger keeps them sorted: the first is the operation's first version
   * (a replace deletes the rows created before it).
   */
  get versions(): readonly number[] {
    return this.#appends.map((a) => a.version);
  }

  /**
   * Records that the operation's last commit landed (e.g. the delete of the
   * rows a replace's appends replace): a later {@link rollBack} undoes
   * nothing, since the operation's commits are all in.
   */
  settle(): void {
    this.#settled = true;
  }

  /** Records that the operation created (or overwrote) the table. */
  recordCreate(): void {
    this.#createdTable = true;
  }

  /**
   * Records an append of `rows` rows committed as `version`. The first one
   * also tells whether the table has stable row ids (without them every row
   * reads `_row_created_at_version` 1, so the rows cannot be found again).
   */
  async recordAppend(table: LanceTable, version: number, rows: number): Promise<void> {
    const at = this.#appends.findIndex((a) => a.version > version);
    this.#appends.splice(at === -1 ? this.#appends.length : at, 0, { version, rows });
    if (this.#stableRowIds !== undefined) return;
    this.#stableRowIds = (await countRows(table, `_row_created_at_version = ${version}`)) === rows;
    this.#olderRows = await countRows(table, `_row_created_at_version < ${version}`);
  }

  /** Records that a widen rewrote the table: the rows of the appends so far now read as created by the rewrite. */
  recordRewrite(): void {
    if (this.#replacedVersion === undefined) this.#rewrittenAppends = this.#appends.length;
  }

  /**
   * Undoes the recorded commits in one more commit (see the module comment)
   * and clears the ledger. `operationError` is the error that made the
   * operation fail; it becomes the `cause` of the errors thrown here.
   *
   * @throws RollbackIncompleteError when rows or a version of the operation
   * stay in the table: the undo failed in storage, the table has no stable
   * row ids, or a rewrite re-created the rows of earlier appends.
   */
  async rollBack(table: LanceTable, operationError?: unknown): Promise<RollbackOutcome> {
    if (this.#appends.length === 0 || this.#settled) return "nothing";
    this.#branch = table.branch;
    try {
      if (this.#replacedVersion !== undefined) return await this.#restoreReplaced(table, operationError);
      if (this.#stableRowIds === false) {
        throw this.#incomplete(
          this.#appends,
          this.#restoreBeforeFirst(),
          "the table has no stable row ids (it was not created by lance-nd's write)",
          operationError,
          operationError,
        );
      }
      await this.#findRewriteByOthers(table);
      const rewritten = this.#appends.slice(0, this.#rewrittenAppends);
      const findable = this.#appends.slice(this.#rewrittenAppends);
      if (findable.length > 0) await this.#removeRows(table, findable, operationError);
      if (rewritten.length > 0) {
        const reason = `a widen rewrote the table after versions ${rewritten.map((a) => a.version).join(", ")}, and their rows now read as created by the rewrite; the rows of later versions were removed`;
        throw this.#incomplete(rewritten, this.#restoreBeforeFirst(), reason, operationError, operationError);
      }
      if (this.#createdTable && (await countRows(table)) === 0) {
        await dropTable(table);
        return "dropped";
      }
      return "removed";
    } finally {
      this.#appends.length = 0;
      this.#rewrittenAppends = 0;
    }
  }

  /**
   * A widen in another process that rewrote the table re-created every row
   * with the rewrite's version: the table had rows older than the first
   * append, and now none. The appends whose rows are gone are then recorded
   * as rewritten (their rows may still be there, under the rewrite's version).
   */
  async #findRewriteByOthers(table: LanceTable): Promise<void> {
    const first = this.#appends[0]!.version;
    if (this.#olderRows === 0 || (await countRows(table, `_row_created_at_version < ${first}`)) > 0) return;
    let rewritten = 0;
    for (const [i, { version }] of this.#appends.entries()) {
      if ((await countRows(table, `_row_created_at_version = ${version}`)) === 0) rewritten = i + 1;
    }
    this.#rewrittenAppends = Math.max(this.#rewrittenAppends, rewritten);
  }

  async #restoreReplaced(table: LanceTable, operationError: unknown): Promise<RollbackOutcome> {
    const version = this.#replacedVersion!;
    try {
      await restoreVersion(table, version);
    } catch (err) {
      throw this.#incomplete(
        this.#appends,
        this.#restoreCommand(version),
        `restore failed: ${messageOf(err)}`,
        err,
        operationError,
      );
    }
    return "restored";
  }

  async #removeRows(table: LanceTable, appends: readonly RecordedAppend[], operationError: unknown): Promise<void> {
    const predicate = `_row_created_at_version IN (${appends.map((a) => a.version).join(", ")})`;
    try {
      await deleteWhere(table, predicate);
    } catch (err) {
      const undo = { undo: `lance-nd delete ${this.#target()} --where "${predicate}"`, deletePredicate: predicate };
      throw this.#incomplete(appends, undo, `delete failed: ${messageOf(err)}`, err, operationError);
    }
  }

  /** The undo of rows that cannot be found by version: restore the version before the operation's first append. */
  #restoreBeforeFirst(): Undo {
    const before = Math.min(...this.#appends.map((a) => a.version)) - 1;
    const restore = this.#restoreCommand(before);
    return {
      ...restore,
      undo: `${restore.undo} (this also undoes every commit made after version ${before} by others)`,
    };
  }

  #restoreCommand(version: number): Undo {
    return { undo: `lance-nd restore ${this.#target()} ${version}`, restoreVersion: version };
  }

  /** The table of an undo command: the uri, and `--branch` for a branch (README.md, "Version control"). */
  #target(): string {
    return this.#branch === null ? shellWord(this.#uri) : `${shellWord(this.#uri)} --branch ${shellWord(this.#branch)}`;
  }

  #incomplete(
    appends: readonly RecordedAppend[],
    undo: Undo,
    reason: string,
    cause: unknown,
    operationError: unknown,
  ): LanceNdError {
    const leftBehind = {
      ...undo,
      versions: appends.map((a) => a.version),
      rows: appends.reduce((n, a) => n + a.rows, 0),
    };
    return new RollbackIncompleteError(this.#uri, leftBehind, reason, cause, operationError);
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** `word` as one shell word: as it is when it is plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
