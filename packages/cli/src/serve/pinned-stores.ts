/**
 * The Zarr stores `lance-nd serve` answers from, one per pinned table
 * version (CLI README, "serve"): a version number or a tag is pinned as it
 * is; a branch (and the default line when no `--version` is given) is
 * resolved to its latest version when first asked and stays at that
 * version until `?refresh`, so the metadata and the chunks a client reads
 * come from one version. A branch pin names a version of that branch's
 * history (its number and the time it was committed): once the branch is
 * deleted, or deleted and made again under the same name, the pin answers
 * {@link PinGone} instead of the new branch's content.
 */
import { open, zarrStore } from "lance-nd";
import type { NdTable, ZarrStore, ZarrStoreOptions } from "lance-nd";
import { storageOptionsOf } from "../args/storage-options.js";
import { openTable } from "../args/open-table.js";
import type { Io } from "../io.js";
import { isUserError } from "../report.js";
import type { Pin } from "./routes.js";

/** A branch pin whose version is no longer the one pinned: the branch was deleted, or deleted and made again. */
export class PinGone extends Error {
  override readonly name = "PinGone";
}

/** A branch's pinned version: its number and when it was committed (what tells a re-made branch's version apart). */
interface BranchPin {
  version: number;
  committedAt: number;
}

/** Stores kept at once (each holds one pinned table handle); the oldest goes first. */
const CACHED_STORES = 8;

/** What {@link PinnedStores} serves. */
export interface PinnedStoresOptions {
  /** The table. */
  uri: string;
  /** The branch served by default and by `@v<N>` (undefined: main). */
  branch?: string;
  /** The version (number or tag) served by default; undefined: the branch's latest, pinned when first asked. */
  version?: number | string;
  /** The options of each store. */
  store: ZarrStoreOptions;
  /** The options of the object store the table is on (`--storage-option`). */
  storageOption?: Record<string, string>;
  /** Where a version served that is half an import is warned about, once a store. */
  io?: Io;
}

/** The table's stores by pin, made on first use and kept (at most {@link CACHED_STORES}). */
export class PinnedStores {
  readonly #options: PinnedStoresOptions;
  /** The served branch; undefined for main. */
  readonly #branch: string | undefined;
  /** The version each branch is pinned to, by branch name. */
  readonly #branchVersions = new Map<string, Promise<BranchPin>>();
  /** The check that a branch's pinned version is still the one pinned, running or last done, by branch name. */
  readonly #confirmations = new Map<string, Promise<void>>();
  /** The stores by `<branch>@<version or tag>`, oldest first. */
  readonly #stores = new Map<string, Promise<ZarrStore>>();

  /** Stores of the table `options.uri`; nothing is opened until {@link store} is called. */
  constructor(options: PinnedStoresOptions) {
    this.#options = options;
    this.#branch = options.branch === "main" ? undefined : options.branch;
  }

  /**
   * The store of `pin`; with `refresh`, a branch pin first moves to the
   * branch's latest version. Throws what opening the table at that version
   * throws (`LanceNdError` `InvalidInput` for a version, tag or branch that
   * does not exist), and {@link PinGone} for a branch pin whose branch was
   * deleted (or deleted and made again) since.
   */
  async store(pin: Pin, refresh = false): Promise<ZarrStore> {
    const branch = this.#branch;
    const { version } = this.#options;
    switch (pin.kind) {
      case "version":
        return this.#pinned(branch, pin.version);
      case "tag":
        return this.#pinned(undefined, pin.name);
      case "branch":
        return this.#onBranch(pin.name, refresh);
      case "default":
        return version === undefined ? this.#onBranch(branch ?? "main", refresh) : this.#pinned(branch, version);
    }
  }

  /** The store of the version `branch` is pinned to, once that version is confirmed to be the one pinned. */
  async #onBranch(branch: string, refresh: boolean): Promise<ZarrStore> {
    const pinned = await this.#latest(branch, refresh);
    // main is never deleted; another branch may be, and made again with versions of the same numbers.
    if (branch !== "main") await this.#confirm(branch, pinned);
    return this.#pinned(branch === "main" ? undefined : branch, pinned.version, pinned.committedAt);
  }

  /** The version `branch` is pinned to: its latest when first asked (or on `refresh`). */
  #latest(branch: string, refresh: boolean): Promise<BranchPin> {
    let pinned = this.#branchVersions.get(branch);
    if (pinned === undefined || refresh) {
      pinned = this.#openBranch(branch).then(async (table) => {
        const version = await table.version();
        return { version, committedAt: await committedAt(table, version) };
      });
      this.#branchVersions.set(branch, pinned);
      pinned.catch(() => this.#branchVersions.delete(branch));
    }
    return pinned;
  }

  /**
   * Checks that `branch`'s version `pinned.version` is still the commit
   * pinned; requests that arrive while a check runs share it. Throws
   * {@link PinGone} when the branch is gone or was made again.
   */
  #confirm(branch: string, pinned: BranchPin): Promise<void> {
    let check = this.#confirmations.get(branch);
    if (check === undefined) {
      check = (async () => {
        const gone = `branch ${branch} was deleted since its version ${pinned.version} was pinned`;
        let table: NdTable;
        try {
          table = await this.#openBranch(branch);
        } catch (err) {
          if (isUserError(err)) throw new PinGone(`${gone}; ask with ?refresh for what the name holds now`);
          throw err;
        }
        if ((await committedAt(table, pinned.version)) !== pinned.committedAt)
          throw new PinGone(
            `${gone} and made again: its version ${pinned.version} is another commit now; ask with ?refresh to serve the new branch`,
          );
      })();
      this.#confirmations.set(branch, check);
      void check.then(
        () => this.#confirmations.delete(branch),
        () => this.#confirmations.delete(branch),
      );
    }
    return check;
  }

  /** The table on `branch` at its latest version. */
  #openBranch(branch: string): Promise<NdTable> {
    return open(this.#options.uri, { ...storageOptionsOf(this.#options), ...(branch === "main" ? {} : { branch }) });
  }

  /** The store of `version` of `branch`; `committedAt` tells a version of a branch made again from the one of the same number before. */
  #pinned(branch: string | undefined, version: number | string, committedAt?: number): Promise<ZarrStore> {
    const key = `${branch ?? ""}@${typeof version === "number" ? version : `tag:${version}`}@${committedAt ?? ""}`;
    let store = this.#stores.get(key);
    if (store !== undefined) {
      this.#stores.delete(key); // most recently used goes last
    } else {
      if (this.#stores.size >= CACHED_STORES) this.#stores.delete(this.#stores.keys().next().value!);
      const flags = {
        version,
        storageOption: this.#options.storageOption,
        ...(branch === undefined ? {} : { branch }),
      };
      store = openTable(this.#options.uri, flags, this.#options.io).then((table) =>
        zarrStore(table, this.#options.store),
      );
      store.catch(() => this.#stores.delete(key));
    }
    this.#stores.set(key, store);
    return store;
  }
}

/** When `version` of `table`'s branch was committed (ms since 1970), or NaN when the branch has no such version. */
async function committedAt(table: NdTable, version: number): Promise<number> {
  return (await table.versions()).find((v) => v.version === version)?.timestamp.getTime() ?? Number.NaN;
}
