/**
 * The store type that `openZarr` takes (zarr README, "Stores elsewhere").
 */

/**
 * A zarrita store as `openZarr` reads it: zarrita's `AsyncReadable` (`get`,
 * and `getRange` where the store has one), written out here so that the
 * published declarations do not load `@zarrita/storage`'s, whose zip
 * store's types do not compile under `moduleResolution: NodeNext` (the
 * root README, "Use the packages in an app": types compile with tsc's
 * defaults). Every
 * zarrita store (FetchStore, FileSystemStore, ...) is one.
 */
export interface ZarrStoreReader {
  get(key: `/${string}`, opts?: { signal?: AbortSignal }): Promise<Uint8Array | undefined>;
  getRange?(
    key: `/${string}`,
    range: { offset: number; length: number } | { suffixLength: number },
    opts?: { signal?: AbortSignal },
  ): Promise<Uint8Array | undefined>;
}
