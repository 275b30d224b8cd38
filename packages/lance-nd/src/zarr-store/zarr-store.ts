/**
 * `zarrStore`: a table version as a read-only Zarr store computed from its
 * rows on request (README "Serving as Zarr"), a zarrita `AsyncReadable`:
 * each dataset (rows grouped by `id`, `_` for rows without one) is a group
 * at `/<id>` (percent-encoded), its variables arrays in it.
 */
import { isLanceNdError } from "../errors.js";
import type { NdTable } from "../table.js";
import { checkTable } from "../table-check.js";
import { datasetIds, datasetRows } from "./dataset-ids.js";
import { storeSettings, type StoreSettings, type ZarrStoreOptions } from "./options.js";
import { ServedDataset } from "./served-dataset.js";

/** The root group of a v2 and a v3 store: no attributes, the datasets as its members. */
const ROOT_DOCUMENTS: Readonly<Record<2 | 3, Readonly<Record<string, string>>>> = {
  2: { ".zgroup": '{\n  "zarr_format": 2\n}', ".zattrs": "{}" },
  3: { "zarr.json": '{\n  "zarr_format": 3,\n  "node_type": "group",\n  "attributes": {}\n}' },
};

/**
 * A table version served as Zarr (see {@link zarrStore}). Keys are paths
 * from the root: `/<id>/.zmetadata`, `/<id>/<variable>/.zarray`,
 * `/<id>/<variable>/0.0` (v2); `/<id>/zarr.json`, `/<id>/<variable>/c/0/0`
 * (v3).
 */
export class ZarrStore {
  /** The table version served: every key reads this version. */
  readonly version: number;
  readonly #view: NdTable;
  readonly #settings: StoreSettings;
  #ids: Promise<string[]> | undefined;
  readonly #datasets = new Map<string, Promise<ServedDataset>>();

  /** @internal Use {@link zarrStore}. */
  constructor(view: NdTable, version: number, settings: StoreSettings) {
    this.#view = view;
    this.version = version;
    this.#settings = settings;
  }

  /** The ids of the datasets served (`_` for the rows without an `id`), in table order. */
  async datasets(): Promise<string[]> {
    return [...(await this.#datasetIds())];
  }

  /**
   * The bytes at `key` (`/` then the percent-encoded dataset id, then the
   * Zarr key in its group), or `undefined` for a key the store does not
   * hold: an unknown dataset or variable, a chunk index past the array's
   * grid or with the wrong number of dims, a malformed key (`..`, empty
   * segments). Metadata is computed once per dataset; a chunk reads the
   * rows it covers (at most `maxChunkRows`) on each call.
   *
   * @throws LanceNdError `InvalidInput` for a dataset Zarr cannot hold (a
   * type or attribute without a Zarr counterpart, nulls without
   * `_FillValue`), naming the variable.
   */
  async get(key: string, _options?: unknown): Promise<Uint8Array | undefined> {
    // `_options`: zarrita's per-request options (fetch's), which a computed store has no use for.
    if (typeof key !== "string" || !key.startsWith("/")) return undefined;
    const path = key.slice(1);
    const root = ROOT_DOCUMENTS[this.#settings.zarrVersion][path];
    if (root !== undefined) return new TextEncoder().encode(root);
    const slash = path.indexOf("/");
    if (slash < 0) return undefined;
    const rest = path.slice(slash + 1);
    if (rest.split("/").some((part) => part === "" || part === "." || part === "..")) return undefined;
    const id = decodedSegment(path.slice(0, slash));
    if (id === undefined || !(await this.#datasetIds()).includes(id)) return undefined;
    return (await this.#dataset(id)).get(rest);
  }

  #datasetIds(): Promise<string[]> {
    if (this.#ids === undefined) {
      const ids = datasetIds(this.#view);
      // A failed scan is not kept: the next request tries again.
      ids.catch(() => {
        if (this.#ids === ids) this.#ids = undefined;
      });
      this.#ids = ids;
    }
    return this.#ids;
  }

  #dataset(id: string): Promise<ServedDataset> {
    let served = this.#datasets.get(id);
    if (served === undefined) {
      served = ServedDataset.open(this.#view, datasetRows(this.#view, id), this.#settings);
      // The version is pinned: a dataset refused (InvalidInput) stays refused; another failure
      // (storage) is not kept, and the next request tries again.
      served.catch((err: unknown) => {
        if (!isLanceNdError(err, "InvalidInput")) this.#datasets.delete(id);
      });
      this.#datasets.set(id, served);
    }
    return served;
  }
}

/** A key segment percent-decoded, `undefined` when it is not valid percent-encoding. */
function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Serves `table` as a read-only Zarr store (README "Serving as Zarr"),
 * pinned to the table's current version: for an older version or a tag,
 * pass `await table.checkout(v)`; for a branch, `await open(uri, { branch })`.
 * Every dataset of the table is a group (its metadata equals what
 * `lance-nd export --format zarr` writes for it, but for the chunk grid and
 * codec); a chunk is computed from the rows it covers when asked for.
 *
 * @throws LanceNdError `InvalidInput` for bad options.
 * @example
 * const store = await zarrStore(await open("sst.lance"));
 * const group = await zarr.open(zarr.root(store).resolve(encodeURIComponent("sst.nc")), { kind: "group" });
 */
export async function zarrStore(table: NdTable, options?: ZarrStoreOptions): Promise<ZarrStore> {
  checkTable(table, "zarrStore");
  const settings = storeSettings(table.uri, options);
  const version = await table.version();
  const view = table.readOnly ? table : await table.checkout(version);
  return new ZarrStore(view, version, settings);
}
