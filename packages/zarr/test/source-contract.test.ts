/**
 * The reader contract's shared suite (`sourceContract` of test-helpers)
 * against `openZarr` on a v2 store xarray wrote, read from its directory
 * and over HTTP (`startFileServer`), and on a v3 array zarrita wrote.
 */
import { join } from "node:path";
import { type FileServer, sourceContract, startFileServer } from "@lance-nd/test-helpers";
import { afterAll, beforeAll } from "vitest";
import { openZarr } from "../src/index.js";
import { python, skipOracle, tempDir } from "./python-oracle.js";
import { writeCountsStore } from "./zarrita-store.js";

// t(time=6, lat=4, lon=5) float32 with NaNs and attributes, two time steps a chunk, written by xarray.
const WRITE = `
import sys, numpy as np, xarray as xr
t = np.arange(120, dtype="float32").reshape(6, 4, 5) / 4
t[1, 2, 3] = np.nan
ds = xr.Dataset({"t": (("time", "lat", "lon"), t, {"units": "K", "long_name": "temperature"})},
                coords={"time": np.arange(6), "lat": [10.0, 20.0, 30.0, 40.0], "lon": np.arange(5) * 2.5},
                attrs={"title": "contract"})
ds.to_zarr(sys.argv[1], encoding={"t": {"chunks": (2, 4, 5)}})
`;

let out: ReturnType<typeof tempDir>;
let server: FileServer;

beforeAll(async () => {
  if (skipOracle) return;
  out = tempDir("lance-nd-zarr-contract-");
  python(["-c", WRITE, join(out.dir, "contract.zarr")]);
  await writeCountsStore(join(out.dir, "zarrita.zarr"), { attributes: {}, shape: [5, 3], chunkRows: 2, step: 7 });
  server = await startFileServer(out.dir);
});
afterAll(async () => {
  await server?.stop();
  out?.remove();
});

sourceContract(
  "openZarr(an xarray v2 store)",
  () => ({ open: () => openZarr(join(out.dir, "contract.zarr")), variable: "t" }),
  skipOracle,
);
sourceContract(
  "openZarr(the same over HTTP)",
  () => ({ open: () => openZarr(`${server.url}/contract.zarr`), variable: "t" }),
  skipOracle,
);
sourceContract(
  "openZarr(a v3 store zarrita wrote)",
  () => ({ open: () => openZarr(join(out.dir, "zarrita.zarr")), variable: "counts" }),
  skipOracle,
);
