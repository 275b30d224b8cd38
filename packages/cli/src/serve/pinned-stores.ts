/**
 * The Zarr stores `lance-nd serve` answers from, one per pinned table
 * version (CLI README, "serve"): a version number or a tag is pinned as it
 * is; a branch (and the default line when no `--version` is given) is
 * resolved to its latest version when first asked and stays at that
 * version until `?refresh`, so the metadata and the chunks a client reads
 * come from one version.
 */
import { open, zarrStore } from "lance-nd";
import type { ZarrStore, ZarrStoreOptions } from "lance-nd";
import { storageOptionsOf } from "../args/storage-options.js";
import { openTable } from "../commands/open-table.js";
import type { Io } from "../io.js";
import type { Pin } from "./routes.js";

/** Stores kept at once (each holds one pinned table handle); the oldest goes first. */
export const CACHED_STORES = 8;

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
  /** The version each branch is pinned to ("" for main), by branch name. */
  readonly #branchVersions = new Map<string, Promise<number>>();
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
   * does not exist).
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
        return this.#pinned(pin.name === "main" ? undefined : pin.name, await this.#latest(pin.name, refresh));
      case "default":
        return version === undefined
          ? this.#pinned(branch, await this.#latest(branch ?? "main", refresh))
          : this.#pinned(branch, version);
    }
  }

  /** The version `branch` is pinned to: its latest when first asked (or on `refresh`). */
  #latest(branch: string, refresh: boolean): Promise<number> {
    let version = this.#branchVersions.get(branch);
    if (version === undefined || refresh) {
      version = open(this.#options.uri, {
        ...storageOptionsOf(this.#options),
        ...(branch === "main" ? {} : { branch }),
      }).then((table) => table.version());
      this.#branchVersions.set(branch, version);
      version.catch(() => this.#branchVersions.delete(branch));
    }
    return version;
  }

  #pinned(branch: string | undefined, version: number | string): Promise<ZarrStore> {
    const key = `${branch ?? ""}@${typeof version === "number" ? version : `tag:${version}`}`;
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
