/**
 * The error of a rollback that could not complete (README.md, "Commit
 * ledger"): the table was left changed, and the error says how, in its
 * message and as typed fields.
 */
import { LanceNdError } from "../errors.js";

/** What a failed rollback left in the table, and the one command that undoes it. */
export interface LeftBehind {
  /** The versions whose rows are still in the table (the operation's own commits). */
  versions: number[];
  /** How many rows of those versions are still there (as far as known). */
  rows: number;
  /** The one `lance-nd` command that undoes them, e.g. `lance-nd restore <uri> 7` or a delete by `_row_created_at_version`. */
  undo: string;
  /** The version to restore, when restoring undoes them (an overwrite's old version). */
  restoreVersion?: number;
  /** The Lance SQL predicate that selects the rows left behind, when a delete undoes them. */
  deletePredicate?: string;
}

/**
 * `WriterFailed` from a rollback that could not complete: the table keeps
 * rows (or a version) of the failed operation. `leftBehind` names the
 * versions, the rows and the one command that undoes them; the message says
 * the same; `cause` is the error that stopped the rollback (e.g. "No space
 * left on device"), `operationError` the error that made the operation fail.
 *
 * @example
 * try { await writer.finish(); } catch (err) {
 *   if (err instanceof RollbackIncompleteError) console.error(err.leftBehind.undo);
 * }
 */
export class RollbackIncompleteError extends LanceNdError {
  /** What the failed rollback left in the table. */
  readonly leftBehind: LeftBehind;
  /** The error that made the operation fail and start the rollback. */
  readonly operationError: unknown;

  constructor(uri: string, leftBehind: LeftBehind, reason: string, cause: unknown, operationError: unknown) {
    const versions =
      leftBehind.versions.length === 1
        ? `version ${leftBehind.versions[0]}`
        : `versions ${leftBehind.versions.join(", ")}`;
    const rows = `${leftBehind.rows} row${leftBehind.rows === 1 ? "" : "s"}`;
    super(
      "WriterFailed",
      `the rollback of the write could not complete (${reason}): the table keeps ${rows} of ${versions}; undo them with: ${leftBehind.undo}`,
      { uri, cause },
    );
    this.leftBehind = leftBehind;
    this.operationError = operationError;
  }
}
