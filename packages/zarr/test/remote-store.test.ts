/**
 * openZarr over HTTP (README "Stores elsewhere"), against a local server
 * of real stores: a v2 store xarray wrote (consolidated, and a copy
 * without .zmetadata), the v3 stores of fixtures/v3_spec_stores.py (a
 * sharded array read by ranges) and a v3 array zarrita wrote. Values are
 * xarray's; the server's log proves only the chunks a selection touches
 * are fetched; faults are retried or refused with the URL and the chunk.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FileServer,
  type ObjectStoreServer,
  folderObjects,
  putObjects,
  startFileServer,
  startS3Server,
} from "@lance-nd/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isZarrError, openZarr } from "../src/index.js";
import { fixtureScript, python, skipOracle, tempDir } from "./python-oracle.js";
import { writeCountsStore } from "./zarrita-store.js";

// t(time=100, lat=6, lon=8) float32, one time step a chunk (Blosc, as zarr-python's default), written by xarray.
const WRITE_V2 = `
import sys, json, shutil, numpy as np, xarray as xr
out = sys.argv[1]
t = (np.arange(100 * 6 * 8, dtype="float32") * 0.5).reshape(100, 6, 8)
ds = xr.Dataset({"t": (("time", "lat", "lon"), t, {"units": "K"})},
                coords={"time": np.arange(100), "lat": np.linspace(30, 35, 6), "lon": np.linspace(0, 7, 8)},
                attrs={"title": "hourly"})
ds.to_zarr(out + "/hourly.zarr", encoding={"t": {"chunks": (1, 6, 8)}})
ds.to_zarr(out + "/listed.zarr", encoding={"t": {"chunks": (1, 6, 8)}}, consolidated=False)
sel = xr.open_zarr(out + "/hourly.zarr").isel(time=slice(40, 42), lat=slice(1, 3))
json.dump({"t": sel.t.values.ravel().tolist(), "lat": sel.lat.values.tolist()}, open(out + "/expected.json", "w"))
`;

let out: ReturnType<typeof tempDir>;
let server: FileServer;
let plain: FileServer;
let expected: { t: number[]; lat: number[] };
let v3: Record<string, { values: unknown[] }>;

beforeAll(async () => {
  if (skipOracle) return;
  out = tempDir("lance-nd-zarr-remote-");
  python(["-c", WRITE_V2, out.dir]);
  python([fixtureScript("v3_spec_stores.py"), join(out.dir, "v3")]);
  expected = JSON.parse(readFileSync(join(out.dir, "expected.json"), "utf8")) as typeof expected;
  v3 = JSON.parse(readFileSync(join(out.dir, "v3", "expected.json"), "utf8")) as typeof v3;
  await writeCountsStore(join(out.dir, "zarrita.zarr"), {
    attributes: { title: "zarrita" },
    shape: [10, 4],
    chunkRows: 2,
    step: 3,
  });
  server = await startFileServer(out.dir);
  plain = await startFileServer(out.dir, { ignoreRange: true });
});
afterAll(async () => {
  await server?.stop();
  await plain?.stop();
  out?.remove();
});

/** The requests for chunks of `t` (keys `t/<i>.0.0`). */
const chunkRequests = (s: FileServer) => s.requests.filter((r) => /^\/hourly\.zarr\/t\/\d/.test(r.path));

describe.skipIf(skipOracle)("openZarr over HTTP", () => {
  it("a consolidated v2 store: one metadata request for every array, a selection fetches only its chunks, values are xarray's", async () => {
    server.reset();
    server.inject([]);
    const store = await openZarr(`${server.url}/hourly.zarr`);
    expect(store.consolidated).toBe(true);
    expect(store.globalAttrs.get("id")?.toJS()).toBe("hourly.zarr");
    // zarr.json, .zarray, .zgroup, .zmetadata at the root; nothing of any array.
    expect(server.requests.map((r) => r.path).sort()).toEqual(
      ["/hourly.zarr/.zarray", "/hourly.zarr/.zgroup", "/hourly.zarr/.zmetadata", "/hourly.zarr/zarr.json"].sort(),
    );
    const opened = server.requests.length;
    const t = await store.read("t", { time: [40, 42], lat: [1, 3] });
    expect(Array.from(t.values as Iterable<number>)).toEqual(expected.t);
    expect(Array.from((await store.read("lat", { lat: [1, 3] })).values as Iterable<number>)).toEqual(expected.lat);
    expect(chunkRequests(server).map((r) => r.path)).toEqual(["/hourly.zarr/t/40.0.0", "/hourly.zarr/t/41.0.0"]);
    const chunkBytes = chunkRequests(server).reduce((n, r) => n + r.bytes, 0);
    const storeChunk = readFileSync(join(out.dir, "hourly.zarr", "t", "40.0.0")).byteLength;
    expect(chunkBytes).toBeLessThanOrEqual(2 * storeChunk + 16);
    expect(server.requests.length - opened).toBe(3);
  });

  it("select and variables: rows of the region on the chunk grid, each touched chunk fetched once, coordinates kept", async () => {
    const store = await openZarr(`${server.url}/hourly.zarr`, {
      variables: ["t"],
      select: { time: [33, 54], lat: [1, 3] },
      rowBytes: 320, // five time steps of the region (2 x 8 float32)
    });
    expect(store.variables.map((v) => v.name).sort()).toEqual(["lat", "lon", "t", "time"]);
    expect(store.dims).toEqual([
      { name: "time", size: 21 },
      { name: "lat", size: 2 },
      { name: "lon", size: 8 },
    ]);
    server.reset();
    const starts: number[] = [];
    const values: number[] = [];
    for await (const row of store.chunks()) {
      starts.push((row.globalAttr("chunk_offset") as number[])[0]!);
      values.push(...Array.from(row.get("t")!.values as Iterable<number>));
    }
    // The grid of five time steps from 0 shifted to the region's start (33): rows at 0, 2, 7, 12, 17.
    expect(starts).toEqual([0, 2, 7, 12, 17]);
    const want: number[] = [];
    for (let i = 33; i < 54; i++)
      for (let j = 1; j < 3; j++) for (let k = 0; k < 8; k++) want.push((i * 48 + j * 8 + k) * 0.5);
    expect(values).toEqual(want);
    const keys = chunkRequests(server).map((r) => r.path);
    expect(keys.sort()).toEqual(Array.from({ length: 21 }, (_, i) => `/hourly.zarr/t/${33 + i}.0.0`).sort());
  });

  it("a v2 store without .zmetadata is refused naming it, and read when its arrays are named", async () => {
    const refused = await openZarr(`${server.url}/listed.zarr`).catch((err: unknown) => err);
    expect(isZarrError(refused, "InvalidArgument")).toBe(true);
    expect((refused as Error).message).toMatch(/\.zmetadata.*zarr\.json/);
    expect((refused as Error).message).toContain(`${server.url}/listed.zarr`);
    const store = await openZarr(`${server.url}/listed.zarr`, { arrays: ["t", "time", "lat", "lon"] });
    expect(store.consolidated).toBe(false);
    const t = await store.read("t", { time: [40, 42], lat: [1, 3] });
    expect(Array.from(t.values as Iterable<number>)).toEqual(expected.t);
  });

  for (const [name, of] of [
    ["Range honoured", () => server],
    ["Range ignored (200 and the whole file)", () => plain],
  ] as const) {
    it(`v3 stores from the spec, a sharded array read by ranges (${name}): values are the fixture's`, async () => {
      const store = await openZarr(`${of().url}/v3/consolidated.zarr`);
      expect(store.consolidated).toBe(true);
      for (const array of ["sharded", "temp", "count"]) {
        expect(Array.from((await store.read(array)).values as Iterable<unknown>, Number), array).toEqual(
          v3[array]!.values.map(Number),
        );
      }
    });
  }

  it("a v3 array zarrita wrote, opened with its array named", async () => {
    const store = await openZarr(`${server.url}/zarrita.zarr`, { arrays: ["counts"] });
    expect(store.format).toBe(3);
    const counts = await store.read("counts", { x: [3, 5] });
    expect(Array.from(counts.values as Iterable<number>)).toEqual(Array.from({ length: 8 }, (_, i) => (12 + i) * 3));
  });
});

describe.skipIf(skipOracle)("openZarr over HTTP: faults", () => {
  const fast = { requests: { retryDelayMs: 1 } };

  it("503 twice then the data: retried, the values are right", async () => {
    const store = await openZarr(`${server.url}/hourly.zarr`, fast);
    server.reset();
    server.inject([{ path: /\/t\/7\.0\.0$/, status: 503, times: 2 }]);
    const t = await store.read("t", { time: 7 });
    expect(Array.from(t.values as Iterable<number>)).toEqual(Array.from({ length: 48 }, (_, i) => (7 * 48 + i) * 0.5));
    expect(server.requests.map((r) => r.status)).toEqual([503, 503, 200]);
  });

  it("a connection dropped in the middle of a chunk: retried, never a wrong value", async () => {
    const store = await openZarr(`${server.url}/hourly.zarr`, fast);
    server.inject([{ path: /\/t\/8\.0\.0$/, drop: true, times: 1 }]);
    const t = await store.read("t", { time: 8 });
    expect(Array.from(t.values as Iterable<number>)).toEqual(Array.from({ length: 48 }, (_, i) => (8 * 48 + i) * 0.5));
  });

  it("a server that stays busy: ReadFailed naming the URL once the retries run out", async () => {
    const store = await openZarr(`${server.url}/hourly.zarr`, { requests: { retryDelayMs: 1, retries: 2 } });
    server.inject([{ path: /\/t\/9\.0\.0$/, status: 503 }]);
    const err = await store.read("t", { time: 9 }).catch((e: unknown) => e);
    expect(isZarrError(err, "ReadFailed")).toBe(true);
    expect((err as Error).message).toContain(`${server.url}/hourly.zarr/t/9.0.0`);
    expect((err as Error).message).toContain("after 3 tries");
  });

  it("403: ReadFailed naming the URL and saying access was denied, not retried", async () => {
    server.reset();
    server.inject([{ path: /\.zgroup$/, status: 403 }]);
    const err = await openZarr(`${server.url}/hourly.zarr`, fast).catch((e: unknown) => e);
    expect(isZarrError(err, "ReadFailed")).toBe(true);
    expect((err as Error).message).toContain(`${server.url}/hourly.zarr/.zgroup: HTTP 403`);
    expect(server.requests.filter((r) => r.status === 403)).toHaveLength(1);
  });

  it("no store at the URL: NotFound naming the URL", async () => {
    server.inject([]);
    const err = await openZarr(`${server.url}/missing.zarr`).catch((e: unknown) => e);
    expect(isZarrError(err, "NotFound")).toBe(true);
    expect((err as Error).message).toContain(`${server.url}/missing.zarr`);
  });

  it("a chunk with a corrupted body: ReadFailed naming the array and the chunk key", async () => {
    const store = await openZarr(`${server.url}/hourly.zarr`, fast);
    server.inject([{ path: /\/t\/11\.0\.0$/, corrupt: true }]);
    const err = await store.read("t", { time: 11 }).catch((e: unknown) => e);
    expect(isZarrError(err, "ReadFailed")).toBe(true);
    expect((err as Error).message).toContain('array "t"');
    expect((err as Error).message).toContain("t/11.0.0");
    server.inject([]);
  });

  it("an unsupported scheme: InvalidArgument naming what is read", async () => {
    const err = await openZarr("ftp://example.invalid/x.zarr").catch((e: unknown) => e);
    expect(isZarrError(err, "InvalidArgument")).toBe(true);
    expect((err as Error).message).toContain("http://, https://, s3://, gs:// and az://");
  });
});

describe.skipIf(skipOracle)("openZarr of an s3:// store (s3rver)", () => {
  let s3: ObjectStoreServer;
  beforeAll(async () => {
    s3 = await startS3Server("zarr");
    for (const put of await putObjects(s3, folderObjects(join(out.dir, "hourly.zarr"), out.dir))) {
      expect(put.status, put.key).toBe(200);
    }
  });
  afterAll(() => s3?.stop());

  it("signed requests with the storage options' credentials: a selection reads xarray's values", async () => {
    const store = await openZarr("s3://zarr/hourly.zarr", { storage: s3.storageOptions });
    expect(store.consolidated).toBe(true);
    const t = await store.read("t", { time: [40, 42], lat: [1, 3] });
    expect(Array.from(t.values as Iterable<number>)).toEqual(expected.t);
  });

  it("an access key the store does not know: ReadFailed naming the URL and the status, at once", async () => {
    const err = await openZarr("s3://zarr/hourly.zarr", {
      storage: { ...s3.storageOptions, aws_access_key_id: "NOBODY" },
    }).catch((e: unknown) => e);
    expect(isZarrError(err, "ReadFailed")).toBe(true);
    expect((err as Error).message).toMatch(/HTTP 403/);
    expect((err as Error).message).toContain("/zarr/hourly.zarr/");
  });
});
