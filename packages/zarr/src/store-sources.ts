/**
 * Stores that are not local directories (README "Stores elsewhere"): any
 * zarrita store (`get`, `getRange`) and a store at an `http(s)://`,
 * `s3://`, `gs://` or `az://` URL, read through zarrita's FetchStore with
 * the requests of remote-requests.ts (signed for the object stores), their
 * bodies handed on without a copy (uncopied-bodies.ts). Such a store cannot
 * be listed: its arrays come from consolidated metadata, or from the names
 * the caller gives.
 */
import type { ZarrStoreReader } from "./store-reader.js";
import FetchStore from "@zarrita/storage/fetch";
import type { RequestOptions } from "./remote-requests.js";
import { storeFetch } from "./remote-requests.js";
import { azureEndpoint } from "./azure-store.js";
import { gcsEndpoint } from "./gcs-store.js";
import { s3Endpoint } from "./s3-store.js";
import type { SignedEndpoint, StorageOptions } from "./s3-store.js";
import type { StoreFiles } from "./store-files.js";
import { ZarrError } from "./zarr-error.js";

/** True when `value` is a zarrita store: an object with a `get` method. */
export function isReadable(value: unknown): value is ZarrStoreReader {
  return typeof value === "object" && value !== null && typeof (value as { get?: unknown }).get === "function";
}

/** The object stores read by URL scheme, each with the endpoint and signed requests of a URL. */
const OBJECT_STORES: Readonly<
  Record<string, (url: string, storage: StorageOptions, requests: RequestOptions) => SignedEndpoint>
> = { s3: s3Endpoint, gs: gcsEndpoint, az: azureEndpoint };

/**
 * The store at `url` (`http://`, `https://`, or `s3://`, `gs://`, `az://`
 * with `storage`'s credentials), its keys asked for with `requests`;
 * `InvalidArgument` for another scheme.
 */
export function urlFiles(
  url: string,
  arrays: readonly string[] | undefined,
  requests: RequestOptions,
  storage: StorageOptions,
): StoreFiles {
  const scheme = url.slice(0, url.indexOf(":")).toLowerCase();
  const objectStore = Object.hasOwn(OBJECT_STORES, scheme) ? OBJECT_STORES[scheme] : undefined;
  if (objectStore !== undefined) {
    const signed = objectStore(url, storage, requests);
    return readableFiles(new FetchStore(signed.httpUrl, { fetch: storeFetch(signed.requests) }), url, arrays);
  }
  if (scheme !== "http" && scheme !== "https") {
    throw new ZarrError(
      "InvalidArgument",
      `stores at ${scheme}:// URLs are not read yet (http://, https://, s3://, gs:// and az:// are; a bucket can be read through its HTTP endpoint)`,
      { path: url },
    );
  }
  return readableFiles(new FetchStore(url, { fetch: storeFetch(requests) }), url, arrays);
}

/**
 * The keys of `store` as {@link StoreFiles}, at `root` (the URL or name
 * errors give). Listing a folder is only possible where `arrays` names
 * the root's arrays; otherwise it is `InvalidArgument` asking for
 * consolidated metadata.
 */
export function readableFiles(store: ZarrStoreReader, root: string, arrays: readonly string[] | undefined): StoreFiles {
  return {
    root,
    zarrita: store,
    read: async (key) => {
      try {
        return await store.get(`/${key}`);
      } catch (cause) {
        if (cause instanceof ZarrError) throw cause;
        throw new ZarrError("ReadFailed", `cannot read "${key}" (${(cause as Error).message ?? String(cause)})`, {
          path: root,
          cause,
        });
      }
    },
    listDirs: async (key) => {
      if (arrays !== undefined) return key === "" ? [...arrays].sort() : [];
      throw new ZarrError(
        "InvalidArgument",
        "the store's arrays cannot be listed over a network: it has no consolidated metadata (.zmetadata in v2, consolidated_metadata in the root zarr.json in v3); consolidate it (zarr.consolidate_metadata) or name its arrays",
        { path: root },
      );
    },
    at: (group) => readableFiles(prefixed(store, group), `${root}/${group}`, undefined),
  };
}

/** `store` with every key under `prefix/`. */
function prefixed(store: ZarrStoreReader, prefix: string): ZarrStoreReader {
  return {
    get: (key, options) => store.get(`/${prefix}${key}`, options),
    getRange:
      store.getRange === undefined
        ? undefined
        : (key, range, options) => store.getRange!(`/${prefix}${key}`, range, options),
  };
}
