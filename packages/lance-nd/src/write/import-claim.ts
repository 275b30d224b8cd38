/**
 * An import's claim on a table (README.md, "Guarantees"): the writer locks
 * of its ids (writer-lock.ts), then its mark on the version it starts from
 * (import-mark.ts). Released in the other order when the import ended
 * (completed or rolled back): the mark goes first, so a mark is only ever
 * left by an import that did not end, and a lock left without a mark is
 * stale.
 */
import { isLanceNdError } from "../errors.js";
import { type StorageOptions, openTable } from "../lance/table-open.js";
import { currentVersion } from "../lance/table-versions.js";
import { type ImportMark, type ImportMode, markImport, unmarkImport } from "./import-mark.js";
import { type LockWait, lockIds, unlockIds } from "./writer-lock.js";

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
}

/**
 * Takes the locks of `options.ids` on `options.branch`, then marks the
 * import on the version of that branch it starts from (the latest, read
 * after the locks are held). A create claims right after its first commit.
 *
 * @throws LanceNdError `CommitConflict` when an id stays locked
 * (writer-lock.ts); `TableNotFound`; `InvalidInput` when Lance refuses a tag.
 */
export async function claimImport(uri: string, options: ImportClaimOptions): Promise<ImportClaim> {
  const storage = options.storageOptions === undefined ? {} : { storageOptions: options.storageOptions };
  const main = await openTable(uri, storage);
  try {
    const locks = await lockIds(main, options.branch, options.ids, await currentVersion(main), options.wait);
    try {
      const data = options.branch === null ? main : await openTable(uri, { ...storage, branch: options.branch });
      const version = await currentVersion(data).finally(() => data !== main && data.sdk.close());
      const info = { mode: options.mode, branch: options.branch, version, ids: [...options.ids] };
      const mark = await markImport(main, info, await currentVersion(main));
      return {
        mark,
        release: async () => {
          const handle = await openTable(uri, storage).catch((err: unknown) => {
            // A create's rollback dropped the table, and its tags with it.
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
        },
      };
    } catch (err) {
      await unlockIds(main, locks);
      throw err;
    }
  } finally {
    main.sdk.close();
  }
}
