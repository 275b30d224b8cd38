/**
 * A store at an `az://container/path` URL (README "Stores elsewhere"): its
 * blobs fetched over the account's Blob endpoint, each request carrying a
 * read-only shared access signature that `@azure/storage-blob` signs with
 * the account key (or a SAS token given as it is), through the same request
 * policy as any URL (remote-requests.ts): in flight, retries and refusals
 * are those of every store elsewhere. Account, key and endpoint come from
 * `storage` (the Azure keys of lance-nd's storage options) or the
 * `AZURE_*` environment, as for an `az://` table.
 */
import type { RequestOptions } from "./remote-requests.js";
import type { SignedEndpoint, StorageOptions } from "./s3-store.js";
import { ZarrError } from "./zarr-error.js";

/** The storage option keys of each setting, as Lance (object_store) spells them; `azure_*` ones are also read from the environment. */
const KEYS = {
  account: ["azure_storage_account_name", "account_name"],
  key: ["azure_storage_account_key", "azure_storage_access_key", "account_key", "access_key"],
  sas: ["azure_storage_sas_token", "azure_storage_sas_key", "sas_token", "sas_key"],
  endpoint: ["azure_storage_endpoint", "azure_endpoint"],
} as const;

/** How long a signature made for one request stays valid: long enough for a slow answer and some clock skew. */
const SIGNATURE_LIFETIME_MS = 60 * 60 * 1000;

/**
 * The HTTP URL of `url` (`az://container/path`) on the account's Blob
 * endpoint (`https://<account>.blob.core.windows.net`, or the
 * `azure_storage_endpoint` option, e.g. Azurite's
 * `http://127.0.0.1:10000/devstoreaccount1`) and the requests with a fetch
 * that signs each one. `InvalidArgument` naming the URL when the account or
 * its credentials are missing.
 */
export function azureEndpoint(url: string, storage: StorageOptions, requests: RequestOptions): SignedEndpoint {
  const option = (keys: readonly string[]): string | undefined => {
    const given = keys.map((key) => storage[key]).find((value) => value !== undefined && value !== "");
    if (given !== undefined) return given;
    return keys
      .filter((key) => key.startsWith("azure_"))
      .map((key) => process.env[key.toUpperCase()])
      .find((value) => value !== undefined && value !== "");
  };
  const { host: container, pathname } = new URL(url);
  const account = option(KEYS.account);
  const key = option(KEYS.key);
  const sas = option(KEYS.sas)?.replace(/^\?/, "");
  const endpoint = option(KEYS.endpoint)?.replace(/\/+$/, "");
  if (account === undefined && (key !== undefined || endpoint === undefined)) {
    throw new ZarrError(
      "InvalidArgument",
      "no Azure storage account: give azure_storage_account_name (storage options or AZURE_STORAGE_ACCOUNT_NAME)",
      { path: url },
    );
  }
  if (key === undefined && sas === undefined) {
    throw new ZarrError(
      "InvalidArgument",
      "no Azure credentials: give azure_storage_account_key or azure_storage_sas_token (storage options or the AZURE_* environment)",
      { path: url },
    );
  }
  const signature = key === undefined ? async () => sas! : sasSigner(account!, key, container);
  const send = requests.fetch ?? ((request: Request) => fetch(request));
  const httpUrl = `${endpoint ?? `https://${account}.blob.core.windows.net`}/${container}${pathname}`;
  return {
    httpUrl,
    requests: {
      ...requests,
      // The signature goes on the request sent, not on the one errors name.
      fetch: async (request) => {
        const signed = new URL(request.url);
        try {
          signed.search = await signature();
        } catch (cause) {
          const why = cause instanceof Error ? cause.message : String(cause);
          throw new ZarrError("ReadFailed", `cannot sign ${request.url} (${why})`, { path: url, cause });
        }
        return send(new Request(signed, request));
      },
    },
  };
}

/**
 * A fresh read-only SAS for `container` at each call, signed with the
 * account key by `@azure/storage-blob`, loaded at the first call: a
 * command that reads no `az://` store never loads it.
 */
function sasSigner(account: string, key: string, container: string): () => Promise<string> {
  let sign: Promise<(expiresOn: Date) => string> | undefined;
  return async () => {
    sign ??= import("@azure/storage-blob").then((azure) => {
      const credential = new azure.StorageSharedKeyCredential(account, key);
      const permissions = azure.ContainerSASPermissions.parse("r");
      return (expiresOn) =>
        azure
          .generateBlobSASQueryParameters({ containerName: container, permissions, expiresOn }, credential)
          .toString();
    });
    return (await sign)(new Date(Date.now() + SIGNATURE_LIFETIME_MS));
  };
}
