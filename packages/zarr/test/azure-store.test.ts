import {
  ContainerClient,
  ContainerSASPermissions,
  StorageSharedKeyCredential,
  generateBlobSASQueryParameters,
} from "@azure/storage-blob";
import {
  type FaultProxy,
  type ObjectStoreServer,
  folderObjects,
  startAzurite,
  startFaultProxy,
} from "@lance-nd/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isZarrError, openZarr } from "../src/index.js";
import { pythonStores, skipOracle } from "./python-oracle.js";

// A small dataset of three variables and its coordinates, one time step a chunk, and xarray's reading of every variable.
const WRITE = `
import sys, json, numpy as np, xarray as xr
out = sys.argv[1]
ds = xr.Dataset(
    {"t": (("time", "lat", "lon"), (np.arange(12 * 4 * 5, dtype="float32") * 0.25).reshape(12, 4, 5), {"units": "K"}),
     "count": (("time",), np.arange(12, dtype="int32") * 7),
     "mask": (("lat", "lon"), (np.arange(20) % 3 == 0).reshape(4, 5).astype("int8"))},
    coords={"time": np.arange(12), "lat": np.linspace(30, 33, 4), "lon": np.linspace(0, 4, 5)},
    attrs={"title": "azure"})
ds.to_zarr(out + "/store.zarr", encoding={"t": {"chunks": (1, 4, 5)}})
back = xr.open_zarr(out + "/store.zarr", decode_cf=False)
json.dump({name: back[name].values.ravel().tolist() for name in back.variables},
          open(out + "/expected.json", "w"))
`;

const CONTAINER = "zarrstores";
const URL_ = `az://${CONTAINER}/store.zarr`;

const out = pythonStores<Record<string, number[]>>(WRITE, "lance-nd-zarr-azure-");
let azure: ObjectStoreServer;
/** Azurite behind a proxy that answers faults in its place. */
let proxy: FaultProxy | undefined;

/** The storage options that reach Azurite, and a fetch that records the URLs it sends. */
function seen(): { sent: URL[]; requests: { fetch: (request: Request) => Promise<Response> } } {
  const sent: URL[] = [];
  return {
    sent,
    requests: {
      fetch: (request) => {
        sent.push(new URL(request.url));
        return fetch(request);
      },
    },
  };
}

/** An environment holding `vars` and no other `AZURE_*` setting while `run` runs. */
async function withAzureEnv<T>(vars: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const before = { ...process.env };
  for (const key of Object.keys(process.env)) if (key.startsWith("AZURE_")) delete process.env[key];
  Object.assign(process.env, vars);
  try {
    return await run();
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in before)) delete process.env[key];
    Object.assign(process.env, before);
  }
}

beforeAll(async () => {
  if (skipOracle) return;
  azure = await startAzurite(CONTAINER);
  const { azure_storage_account_name, azure_storage_account_key, azure_storage_endpoint } = azure.storageOptions;
  const container = new ContainerClient(
    `${azure_storage_endpoint}/${CONTAINER}`,
    new StorageSharedKeyCredential(azure_storage_account_name!, azure_storage_account_key!),
  );
  for (const { key, bytes } of folderObjects(out.dir)) await container.getBlockBlobClient(key).uploadData(bytes);
});
afterAll(async () => {
  // The proxy's stop stops Azurite too.
  await (proxy ?? azure)?.stop();
});

describe.skipIf(skipOracle)("openZarr of an az:// store (Azurite)", () => {
  it("the storage options' account and key: every variable is xarray's, metadata from one consolidated request", async () => {
    const { sent, requests } = seen();
    const store = await openZarr(URL_, { storage: azure.storageOptions, requests });
    expect(store.consolidated).toBe(true);
    expect(store.globalAttrs.get("title")?.toJS()).toBe("azure");
    expect(store.variables.map((v) => v.name).sort()).toEqual(Object.keys(out.expected).sort());
    // The root's metadata files are asked for once each, nothing of any array: .zmetadata holds them.
    const opened = sent.map((u) => u.pathname.split("/store.zarr/")[1]);
    expect(opened.sort()).toEqual([".zarray", ".zgroup", ".zmetadata", "zarr.json"]);
    for (const url of sent) {
      expect(url.searchParams.get("sr")).toBe("c");
      expect(url.searchParams.get("sp")).toBe("r");
      expect(url.searchParams.get("sig")).toBeTruthy();
    }
    for (const [name, values] of Object.entries(out.expected)) {
      expect(Array.from((await store.read(name)).values as Iterable<unknown>, Number), name).toEqual(values);
    }
    const t = await store.read("t", { time: [3, 5], lat: [1, 3] });
    const want = [3, 4].flatMap((i) =>
      [1, 2].flatMap((j) => [0, 1, 2, 3, 4].map((k) => out.expected.t![i * 20 + j * 5 + k])),
    );
    expect(Array.from(t.values as Iterable<number>)).toEqual(want);
  });

  it("the AZURE_* environment alone, as for an az:// table", async () => {
    const store = await withAzureEnv(azure.env, () => openZarr(URL_));
    expect(Array.from((await store.read("count")).values as Iterable<number>)).toEqual(out.expected.count);
  });

  it("a SAS token given instead of the key", async () => {
    const { azure_storage_account_name, azure_storage_account_key, azure_storage_endpoint } = azure.storageOptions;
    const sas = generateBlobSASQueryParameters(
      {
        containerName: CONTAINER,
        permissions: ContainerSASPermissions.parse("r"),
        expiresOn: new Date(Date.now() + 3_600_000),
      },
      new StorageSharedKeyCredential(azure_storage_account_name!, azure_storage_account_key!),
    ).toString();
    const store = await withAzureEnv({}, () =>
      openZarr(URL_, { storage: { azure_storage_endpoint: azure_storage_endpoint!, azure_storage_sas_token: sas } }),
    );
    expect(Array.from((await store.read("mask")).values as Iterable<number>)).toEqual(out.expected.mask);
  });

  it("no store at the URL: NotFound naming it", async () => {
    const err = await openZarr(`az://${CONTAINER}/missing.zarr`, { storage: azure.storageOptions }).catch(
      (e: unknown) => e,
    );
    expect(isZarrError(err, "NotFound")).toBe(true);
    expect((err as Error).message).toContain(`az://${CONTAINER}/missing.zarr`);
  });

  it("a key the account does not have: ReadFailed naming the URL and the refusal, not retried", async () => {
    const { sent, requests } = seen();
    const wrong = Buffer.from("not the account key").toString("base64");
    const err = await openZarr(URL_, {
      storage: { ...azure.storageOptions, azure_storage_account_key: wrong },
      requests,
    }).catch((e: unknown) => e);
    expect(isZarrError(err, "ReadFailed")).toBe(true);
    expect((err as Error).message).toMatch(/HTTP 403 .*access denied/);
    expect((err as Error).message).toContain(`${azure.storageOptions.azure_storage_endpoint}/${CONTAINER}/store.zarr/`);
    expect((err as Error).message).not.toContain("sig=");
    // Each key asked for once: a refusal is not retried.
    expect(new Set(sent.map((u) => u.pathname)).size).toBe(sent.length);
  });

  it("no account or no credentials: InvalidArgument naming the URL and the keys to give", async () => {
    const { azure_storage_account_name, azure_storage_endpoint } = azure.storageOptions;
    const noKey = await withAzureEnv({}, () =>
      openZarr(URL_, { storage: { azure_storage_account_name: azure_storage_account_name! } }),
    ).catch((e: unknown) => e);
    expect(isZarrError(noKey, "InvalidArgument")).toBe(true);
    expect((noKey as Error).message).toContain("azure_storage_account_key or azure_storage_sas_token");
    expect((noKey as Error).message).toContain(URL_);
    const noAccount = await withAzureEnv({}, () =>
      openZarr(URL_, {
        storage: { azure_storage_endpoint: azure_storage_endpoint!, azure_storage_account_key: "a2V5" },
      }),
    ).catch((e: unknown) => e);
    expect(isZarrError(noAccount, "InvalidArgument")).toBe(true);
    expect((noAccount as Error).message).toContain("azure_storage_account_name");
  });
});

describe.skipIf(skipOracle)("openZarr of an az:// store: the request policy (Azurite behind a fault proxy)", () => {
  const fast = { retryDelayMs: 1 };
  /** The values of t at time step `i`, as xarray read them. */
  const step = (i: number) => out.expected.t!.slice(i * 20, (i + 1) * 20);
  beforeAll(async () => {
    proxy = await startFaultProxy(azure);
  });

  it("ServerBusy (503) twice then the data: retried, the values are xarray's", async () => {
    const store = await openZarr(URL_, { storage: proxy!.storageOptions, requests: fast });
    proxy!.inject([{ path: /\/store\.zarr\/t\/3\.0\.0$/, status: 503, times: 2 }]);
    const t = await store.read("t", { time: [3, 4] });
    expect(Array.from(t.values as Iterable<number>)).toEqual(step(3));
    expect(proxy!.faulted.filter((f) => f.endsWith("/t/3.0.0 503"))).toHaveLength(2);
  });

  it("a connection reset before the answer: retried, the values are xarray's", async () => {
    const store = await openZarr(URL_, { storage: proxy!.storageOptions, requests: fast });
    proxy!.inject([{ path: /\/store\.zarr\/t\/4\.0\.0$/, reset: true, times: 1 }]);
    const t = await store.read("t", { time: [4, 5] });
    expect(Array.from(t.values as Iterable<number>)).toEqual(step(4));
    expect(proxy!.faulted.filter((f) => f.endsWith("/t/4.0.0 reset"))).toHaveLength(1);
  });

  it("a store that stays busy: ReadFailed naming the blob's URL once the retries run out", async () => {
    const store = await openZarr(URL_, { storage: proxy!.storageOptions, requests: { ...fast, retries: 2 } });
    proxy!.inject([{ path: /\/store\.zarr\/t\/5\.0\.0$/, status: 503 }]);
    const err = await store.read("t", { time: [5, 6] }).catch((e: unknown) => e);
    expect(isZarrError(err, "ReadFailed")).toBe(true);
    expect((err as Error).message).toContain(`/${CONTAINER}/store.zarr/t/5.0.0: HTTP 503`);
    expect((err as Error).message).toContain("after 3 tries");
    proxy!.inject([]);
  });

  it("maxRequests bounds the requests in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const store = await openZarr(URL_, {
      storage: proxy!.storageOptions,
      requests: {
        maxRequests: 2,
        fetch: async (request) => {
          most = Math.max(most, ++inFlight);
          try {
            const response = await fetch(request);
            return new Response(await response.arrayBuffer(), response);
          } finally {
            inFlight--;
          }
        },
      },
    });
    const t = await store.read("t");
    expect(Array.from(t.values as Iterable<number>)).toEqual(out.expected.t);
    expect(most).toBe(2);
  });
});
