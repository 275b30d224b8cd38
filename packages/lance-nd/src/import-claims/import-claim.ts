/**
 * An import's claim on a table (README.md, "Guarantees"): the writer locks
 * of its ids (writer-lock.ts), then its mark on the version it starts from
 * (import-mark.ts), checked against the other imports' marks. Released in the other order when the import ended
 * (completed or rolled back): the mark goes first, so a mark is only ever
 * left by an import that did not end, and a lock left without a mark is
 * stale.
 */
import { isLanceNdError } from "../errors.js";
import { setTimeout as sleep } from "node:timers/promises";
import { type LanceTable, type StorageOptions, openTable } from "../lance/table-open.js";
import { currentVersion } from "../lance/table-versions.js";
import {
  type ImportMark,
  type ImportMode,
  importMarks,
  importRunning,
  markImport,
  unmarkImport,
} from "./import-mark.js";
import { idHeldError, type LockWait, lockIds, unlockIds } from "./writer-lock.js";
import { recordImport } from "../versions/import-record.js";

/** What an import claims. */
export interface ImportClaimOptions extends StorageOptions {
  /** The import's mode. */
  mode: ImportMode;
  /** The branch it writes; null for `main`. */
  branch: string | null;
  /** The ids of its rows. */
  ids: readonly string[];
  /** How long to wait for an id another import writes. */
  wait: LockWait;
}

/** A claim taken by {@link claimImport}. */
export interface ImportClaim {
  /** The import's mark. */
  readonly mark: ImportMark;
  /** Removes the mark, then releases the locks (the import ended: completed or rolled back; a dropped table has neither). */
  release(): Promise<void>;
  /**
   * The import completed: records it on `main` (versions/import-record.ts:
   * the versions it made before its last one are half-imports), then
   * {@link ImportClaim.release}. An import of a branch is not recorded (tags name versions of `main`).
   */
  complete(): Promise<void>;
}

/**
 * Takes the locks of `options.ids` on `options.branch`, then marks the
 * import on the version of that branch it starts from (the latest, read
 * after the locks are held), then looks for another mark that names one of
 * its ids. Lance creates a tag by checking that it does not exist, then
 * writing it (SDK-NOTES.md, section 15), so two imports can both take a
 * lock; each writes its mark before it looks at the others', so the one
 * that looks second sees the first: it steps back (mark and locks removed)
 * and tries again after a random pause, within the same wait. A create
 * claims right after its first commit.
 *
 * @throws LanceNdError `CommitConflict` when an id stays held, or is held
 * by an import that does not run any more (writer-lock.ts); `TableNotFound`;
 * `InvalidInput` when Lance refuses a tag.
 */
export async function claimImport(uri: string, options: ImportClaimOptions): Promise<ImportClaim> {
  const storage = options.storageOptions === undefined ? {} : { storageOptions: options.storageOptions };
  const deadline = Date.now() + options.wait.timeoutMs;
  const main = await openTable(uri, storage);
  try {
    for (;;) {
      const wait = { ...options.wait, timeoutMs: Math.max(0, deadline - Date.now()) };
      const locks = await lockIds(main, options.branch, options.ids, await currentVersion(main), wait);
      let rival: { mark: ImportMark; id: string } | undefined;
      try {
        const data = options.branch === null ? main : await openTable(uri, { ...storage, branch: options.branch });
        const version = await currentVersion(data).finally(() => data !== main && data.sdk.close());
        const info = { mode: options.mode, branch: options.branch, version, ids: [...options.ids] };
        const mark = await markImport(main, info, await currentVersion(main));
        rival = await rivalMark(main, mark);
        if (rival === undefined)
          return {
            mark,
            release: () => release(uri, storage, mark, locks),
            complete: () => complete(uri, storage, mark, locks),
          };
        await unmarkImport(main, mark);
      } catch (err) {
        await unlockIds(main, locks);
        throw err;
      }
      await unlockIds(main, locks);
      const stale = !importRunning(rival.mark.info!);
      if (stale || Date.now() >= deadline) throw idHeldError(uri, rival.id, rival.mark, stale, options.wait);
      options.wait.signal?.throwIfAborted();
      await sleep(RETRY_MS * (1 + Math.random()));
    }
  } finally {
    main.sdk.close();
  }
}

/** The pause before a claim that met another import's mark tries again (times 1 to 2, at random). */
const RETRY_MS = 100;

/** Another import's mark that names one of the ids of `mark` on its branch, with that id. */
async function rivalMark(main: LanceTable, mark: ImportMark): Promise<{ mark: ImportMark; id: string } | undefined> {
  const ids = new Set(mark.info!.ids);
  for (const other of await importMarks(main)) {
    if (other.uuid === mark.uuid || other.info === null || other.info.branch !== mark.info!.branch) continue;
    const id = other.info.ids.find((x) => ids.has(x));
    if (id !== undefined) return { mark: other, id };
  }
  return undefined;
}

/**
 * Records the import of `mark` as complete at the latest version of `main`
 * (from version 0 for a create, whose first version is its first add), then
 * releases the claim. The rows are written whatever the record does: a
 * record Lance refuses leaves the versions unmarked, as before records were kept.
 */
async function complete(
  uri: string,
  storage: StorageOptions,
  mark: ImportMark,
  locks: readonly string[],
): Promise<void> {
  const info = mark.info!;
  if (info.branch === null) {
    const main = await openTable(uri, storage);
    try {
      await recordImport(main, info.mode === "create" ? 0 : info.version, await currentVersion(main));
    } catch {
      // Unmarked versions read as complete: the import itself succeeded.
    } finally {
      main.sdk.close();
    }
  }
  await release(uri, storage, mark, locks);
}

/** Removes the mark, then the locks (a create's rollback may have dropped the table, and its tags with it). */
async function release(
  uri: string,
  storage: StorageOptions,
  mark: ImportMark,
  locks: readonly string[],
): Promise<void> {
  const handle = await openTable(uri, storage).catch((err: unknown) => {
    if (isLanceNdError(err, "TableNotFound")) return undefined;
    throw err;
  });
  if (handle === undefined) return;
  try {
    await unmarkImport(handle, mark);
    await unlockIds(handle, locks);
  } finally {
    handle.sdk.close();
  }
}
