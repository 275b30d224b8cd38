import { type ObjectStoreServer, folderObjects, putObjects, startS3Server } from "@lance-nd/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isZarrError, openZarr } from "../src/index.js";
import { pythonStores, skipOracle } from "./python-oracle.js";

// t(time=6, lat=3, lon=4) float64, two time steps a chunk, and xarray's reading of every variable.
const WRITE = `
import sys, json, numpy as np, xarray as xr
out = sys.argv[1]
ds = xr.Dataset({"t": (("time", "lat", "lon"), np.arange(72, dtype="float64").reshape(6, 3, 4) / 8)},
                coords={"time": np.arange(6), "lat": [10.0, 20.0, 30.0], "lon": [1.0, 2.0, 3.0, 4.0]})
ds.to_zarr(out + "/store.zarr", encoding={"t": {"chunks": (2, 3, 4)}})
back = xr.open_zarr(out + "/store.zarr")
json.dump({name: back[name].values.ravel().tolist() for name in back.variables}, open(out + "/expected.json", "w"))
`;

const BUCKET = "gcs-bucket";

const out = pythonStores<Record<string, number[]>>(WRITE, "lance-nd-zarr-gcs-");
let s3: ObjectStoreServer;
/** The HMAC key and the endpoint, as a gs:// store is given them. */
let storage: Record<string, string>;

beforeAll(async () => {
  if (skipOracle) return;
  s3 = await startS3Server(BUCKET);
  const { endpoint, aws_access_key_id, aws_secret_access_key } = s3.storageOptions;
  storage = {
    endpoint: endpoint!,
    aws_access_key_id: aws_access_key_id!,
    aws_secret_access_key: aws_secret_access_key!,
  };
  for (const put of await putObjects(s3, folderObjects(out.dir), "auto")) {
    expect(put.status, put.key).toBe(200);
  }
});
afterAll(async () => {
  await s3?.stop();
});

describe.skipIf(skipOracle)("openZarr of a gs:// store (s3rver as the endpoint)", () => {
  it("path-style requests signed for region auto with the HMAC key: every variable is xarray's", async () => {
    const sent: Request[] = [];
    const store = await openZarr(`gs://${BUCKET}/store.zarr`, {
      storage,
      requests: {
        fetch: (request) => {
          sent.push(request);
          return fetch(request);
        },
      },
    });
    expect(store.consolidated).toBe(true);
    expect(store.variables.map((v) => v.name).sort()).toEqual(Object.keys(out.expected).sort());
    for (const [name, values] of Object.entries(out.expected)) {
      expect(Array.from((await store.read(name)).values as Iterable<unknown>, Number), name).toEqual(values);
    }
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) {
      expect(request.url.startsWith(`${storage.endpoint}/${BUCKET}/store.zarr/`)).toBe(true);
      expect(request.headers.get("authorization")).toMatch(/Credential=S3RVER\/\d{8}\/auto\/s3\/aws4_request/);
    }
  });

  it("the AWS_* environment is not read for gs://: no HMAC key is InvalidArgument naming the URL", async () => {
    const before = { ...process.env };
    Object.assign(process.env, s3.env);
    try {
      const err = await openZarr(`gs://${BUCKET}/store.zarr`).catch((e: unknown) => e);
      expect(isZarrError(err, "InvalidArgument")).toBe(true);
      expect((err as Error).message).toContain("aws_access_key_id and aws_secret_access_key");
      expect((err as Error).message).toContain(`gs://${BUCKET}/store.zarr`);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in before)) delete process.env[key];
      Object.assign(process.env, before);
    }
  });

  it("a key the server does not know: ReadFailed naming the URL and the refusal", async () => {
    const err = await openZarr(`gs://${BUCKET}/store.zarr`, {
      storage: { ...storage, aws_access_key_id: "NOBODY" },
    }).catch((e: unknown) => e);
    expect(isZarrError(err, "ReadFailed")).toBe(true);
    expect((err as Error).message).toMatch(/HTTP 403 .*access denied/);
    expect((err as Error).message).toContain(`${storage.endpoint}/${BUCKET}/store.zarr/`);
  });

  it("no store at the URL: NotFound naming it", async () => {
    const err = await openZarr(`gs://${BUCKET}/missing.zarr`, { storage }).catch((e: unknown) => e);
    expect(isZarrError(err, "NotFound")).toBe(true);
    expect((err as Error).message).toContain(`gs://${BUCKET}/missing.zarr`);
  });
});
