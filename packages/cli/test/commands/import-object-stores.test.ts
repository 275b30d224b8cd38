/**
 * `lance-nd import` of a Zarr store on Azure Blob Storage (`az://`, on
 * Azurite) and on GCS (`gs://`, through its S3-compatible API, here
 * s3rver given as the `endpoint`): a store xarray wrote is uploaded, and
 * the table its import makes holds what an import of the local store
 * holds, with `--storage-option`s alone and, for `az://`, with the
 * `AZURE_*` environment alone. Under CI=true a server that does not start
 * or a missing oracle fails the tests.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ContainerClient, StorageSharedKeyCredential } from "@azure/storage-blob";
import {
  type BucketObject,
  folderObjects,
  putObjects,
  type ObjectStoreServer,
  pythonSkipReason,
  startAzurite,
  startS3Server,
  runPython,
} from "@lance-nd/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, cliAsync, ensureBuilt, storageFlags, tempDir } from "./harness.js";

const skip =
  pythonSkipReason(
    "import from object stores oracle",
    ["numpy", "xarray", "zarr"],
    "apt-get install python3-xarray python3-zarr",
  ) !== undefined;

// t(time=48, lat=5, lon=6) float32, a day of hours a chunk, CF time in hours.
const WRITE = `
import sys, numpy as np, pandas as pd, xarray as xr
shape = (48, 5, 6)
t = (np.arange(np.prod(shape), dtype="float32") * 0.5).reshape(shape)
ds = xr.Dataset({"t": (("time", "lat", "lon"), t, {"units": "K"})},
                coords={"time": pd.date_range("2021-03-01", periods=48, freq="h"),
                        "lat": np.linspace(40, 44, 5), "lon": np.linspace(0, 5, 6)},
                attrs={"title": "stores elsewhere"})
ds.to_zarr(sys.argv[1], encoding={"t": {"chunks": (24, 5, 6)}, "time": {"units": "hours since 2021-03-01", "dtype": "int64"}})
`;

const FLAGS = ["--isel", "time=10:30", "--id", "day"];

let dir: string;
/** The store's files, by key under the bucket or container. */
let files: BucketObject[];
/** `scan --json --all-attrs` of the import of the local store. */
let local: string;

/** This process's environment without any object store setting, and `vars`. */
function envWith(vars: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.entries(process.env).filter(([key]) => !/^(AWS|AZURE|GOOGLE)_/.test(key));
  return { ...Object.fromEntries(clean), ...vars };
}

/** Imports `url` into a new table and returns its scan, after checking that the import succeeded without a word. */
async function importedScan(url: string, table: string, flags: string[], env = envWith({})): Promise<string> {
  const run = await cliAsync(["import", url, join(dir, table), ...FLAGS, ...flags], undefined, env);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return cli(["scan", join(dir, table), "--json", "--all-attrs"]).stdout;
}

beforeAll(() => {
  if (skip) return;
  ensureBuilt();
  dir = tempDir();
  const store = join(dir, "day.zarr");
  runPython(["-c", WRITE, store]);
  files = folderObjects(store, dir);
  expect(cli(["import", store, join(dir, "from-disk.lance"), ...FLAGS]).code).toBe(0);
  local = cli(["scan", join(dir, "from-disk.lance"), "--json", "--all-attrs"]).stdout;
});

describe.skipIf(skip)("lance-nd import of a Zarr store at an az:// URL (Azurite)", () => {
  let azure: ObjectStoreServer;
  beforeAll(async () => {
    azure = await startAzurite("zarrstores");
    const { azure_storage_account_name, azure_storage_account_key, azure_storage_endpoint } = azure.storageOptions;
    const container = new ContainerClient(
      `${azure_storage_endpoint}/zarrstores`,
      new StorageSharedKeyCredential(azure_storage_account_name!, azure_storage_account_key!),
    );
    for (const { key, bytes } of files) await container.getBlockBlobClient(key).uploadData(bytes);
  });
  afterAll(() => azure?.stop());

  it("--storage-option account, key and endpoint: the table holds what an import of the local store holds", async () => {
    expect(await importedScan("az://zarrstores/day.zarr", "from-az.lance", storageFlags(azure.storageOptions))).toBe(
      local,
    );
  });

  it("the AZURE_* environment alone: the same table", async () => {
    expect(await importedScan("az://zarrstores/day.zarr", "from-az-env.lance", [], envWith(azure.env))).toBe(local);
  });

  it("no store at the URL: one line naming it, no table left behind", async () => {
    const table = join(dir, "missing-az.lance");
    const flags = storageFlags(azure.storageOptions);
    const run = await cliAsync(["import", "az://zarrstores/missing.zarr", table, ...flags], undefined, envWith({}));
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("az://zarrstores/missing.zarr");
    expect(existsSync(table)).toBe(false);
  });
});

describe.skipIf(skip)("lance-nd import of a Zarr store at a gs:// URL (s3rver as the endpoint)", () => {
  let s3: ObjectStoreServer;
  beforeAll(async () => {
    s3 = await startS3Server("gcs-bucket");
    for (const put of await putObjects(s3, files, "auto")) {
      expect(put.status, put.key).toBe(200);
    }
  });
  afterAll(() => s3?.stop());

  it("the HMAC key and the endpoint as --storage-option: the table holds what an import of the local store holds", async () => {
    const { endpoint, aws_access_key_id, aws_secret_access_key } = s3.storageOptions;
    const flags = storageFlags({
      endpoint: endpoint!,
      aws_access_key_id: aws_access_key_id!,
      aws_secret_access_key: aws_secret_access_key!,
    });
    expect(await importedScan("gs://gcs-bucket/day.zarr", "from-gs.lance", flags)).toBe(local);
  });
});
