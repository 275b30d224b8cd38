/**
 * `lance-nd import <url> <table>` of a Zarr store served over HTTP by a
 * local server (`startFileServer`), with `--project`, `--sel` (CF dates)
 * and `--isel`: the exported table is xarray's selection of the store,
 * and the server's log shows that only the chunks the selection touches
 * were fetched; the same from a table served by `lance-nd serve`.
 * netCDF files at URLs (classic by byte ranges, netCDF-4 through a
 * temporary copy) import as from disk. Faults: 503 then data, 403, 404,
 * selections an import refuses.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  folderObjects,
  putObjects,
  type FileServer,
  type ObjectStoreServer,
  pythonSkipReason,
  startFileServer,
  startS3Server,
  runPython,
} from "@lance-nd/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureFixtures, fixture, fixtureSkipReason } from "../fixtures.js";
import { startServe } from "../serve/served.js";
import { quiet } from "./checked-runs.js";
import { cli, cliAsync, ensureBuilt, storageFlags, tempDir } from "./harness.js";
import { httpSources } from "./http-sources.js";

const skip =
  pythonSkipReason(
    "import over HTTP oracle",
    ["numpy", "xarray", "zarr"],
    "apt-get install python3-xarray python3-zarr",
  ) !== undefined;

// t and u(time=240 hours, lat=10, lon=12) float32, a day of hours a chunk; CF time in hours since 2020-01-01.
const WRITE = `
import sys, numpy as np, pandas as pd, xarray as xr
out = sys.argv[1]
shape = (240, 10, 12)
t = (np.arange(np.prod(shape), dtype="float32") * 0.25).reshape(shape)
ds = xr.Dataset({"t": (("time", "lat", "lon"), t, {"units": "K"}), "u": (("time", "lat", "lon"), -t, {"units": "m s-1"})},
                coords={"time": pd.date_range("2020-01-01", periods=240, freq="h"),
                        "lat": np.linspace(60, 51, 10), "lon": np.linspace(0, 11, 12)},
                attrs={"title": "hourly"})
enc = {v: {"chunks": (24, 10, 12)} for v in ("t", "u")}
enc["time"] = {"units": "hours since 2020-01-01", "dtype": "int64"}
ds.to_zarr(out, encoding=enc)
`;

// The exported file against xarray's selection of the store: values, dims and coordinates (xr.testing.assert_equal).
const COMPARE = `
import sys, xarray as xr
got = xr.open_dataset(sys.argv[1])
want = xr.open_zarr(sys.argv[2]).sel(time=slice(sys.argv[3], sys.argv[4])).isel(lat=slice(2, 5))[["t"]].compute()
assert sorted(got.data_vars) == ["t"], list(got.data_vars)
xr.testing.assert_equal(got[["t"]], want)
print("same")
`;

// The exported file against xarray's isel of the store's t (an index drops its dim; a [start, stop) slices).
const COMPARE_ISEL = `
import json, sys, xarray as xr
got = xr.open_dataset(sys.argv[1])
isel = {dim: slice(*cells) if isinstance(cells, list) else cells for dim, cells in json.loads(sys.argv[3]).items()}
want = xr.open_zarr(sys.argv[2]).isel(**isel)[["t"]].compute()
assert sorted(got.data_vars) == ["t"], list(got.data_vars)
xr.testing.assert_equal(got[["t"]], want)
print("same")
`;

const sources = httpSources(skip, WRITE, "hourly.zarr");

describe.skipIf(skip)("lance-nd import of a Zarr store at a URL", () => {
  it("--project t --sel time=<two days> --isel lat=2:5: the export is xarray's selection, and only the two days' chunks of t were fetched", async () => {
    const table = join(sources.dir, "part.lance");
    sources.server.reset();
    quiet(
      await cliAsync([
        "import",
        `${sources.server.url}/hourly.zarr`,
        table,
        "--project",
        "t",
        "--sel",
        "time=2020-01-03:2020-01-04",
        "--isel",
        "lat=2:5",
      ]),
    );
    const chunks = sources.server.requests.filter((r) => /\/(t|u)\/\d/.test(r.path)).map((r) => r.path);
    expect(chunks.sort()).toEqual(["/hourly.zarr/t/2.0.0", "/hourly.zarr/t/3.0.0"]);
    const nc = join(sources.dir, "part.nc");
    quiet(cli(["export", table, nc]));
    const same = runPython(["-c", COMPARE, nc, join(sources.dir, "hourly.zarr"), "2020-01-03", "2020-01-04"]);
    expect(same.trim()).toBe("same");
  });

  it("a table served by lance-nd serve: imported with --sel and --isel, the export is xarray's selection of the source", async () => {
    const whole = join(sources.dir, "whole.lance");
    const imported = cli(["import", join(sources.dir, "hourly.zarr"), whole, "--id", "hourly"]);
    expect(imported.code, imported.stderr).toBe(0);
    const served = await startServe(whole);
    try {
      const table = join(sources.dir, "from-serve.lance");
      quiet(
        await cliAsync([
          "import",
          served.datasets[0]!.url,
          table,
          "--project",
          "t",
          "--sel",
          "time=2020-01-05T06:2020-01-06",
          "--isel",
          "lat=2:5",
        ]),
      );
      const nc = join(sources.dir, "from-serve.nc");
      expect(cli(["export", table, nc]).code).toBe(0);
      const same = runPython(["-c", COMPARE, nc, join(sources.dir, "hourly.zarr"), "2020-01-05T06", "2020-01-06"]);
      expect(same.trim()).toBe("same");
    } finally {
      await served.stop();
    }
  });

  it("503 twice on a chunk, then the data: the import retries and succeeds", async () => {
    const table = join(sources.dir, "retried.lance");
    sources.server.inject([{ path: /\/t\/5\.0\.0$/, status: 503, times: 2 }]);
    const run = await cliAsync([
      "import",
      `${sources.server.url}/hourly.zarr`,
      table,
      "--project",
      "t",
      "--isel",
      "time=120:144",
    ]);
    sources.server.inject([]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(sources.server.requests.filter((r) => r.path === "/hourly.zarr/t/5.0.0").map((r) => r.status)).toEqual([
      503, 503, 200,
    ]);
  });

  it("a URL with no store (404): one line naming the URL, no table left behind", async () => {
    const table = join(sources.dir, "missing.lance");
    const run = await cliAsync(["import", `${sources.server.url}/missing.zarr`, table]);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`${sources.server.url}/missing.zarr`);
    expect(existsSync(table)).toBe(false);
  });

  it("403 on the store's metadata: one line naming the URL and the status, no table left behind", async () => {
    const table = join(sources.dir, "denied.lance");
    sources.server.inject([{ path: /\.zmetadata$/, status: 403 }]);
    const run = await cliAsync(["import", `${sources.server.url}/hourly.zarr`, table]);
    sources.server.inject([]);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`${sources.server.url}/hourly.zarr/.zmetadata: HTTP 403`);
    expect(existsSync(table)).toBe(false);
  });

  it("a blosc chunk of 256 KiB whose frame decodes to nothing (a version blosc does not know): one line naming the array and the chunk key, no table left behind", async () => {
    // Chunks of 64 KiB and more decode on the blosc pool's workers: random values, so they stay that large.
    runPython([
      "-c",
      `import sys, numpy as np, xarray as xr
xr.Dataset({"t": (("x",), np.random.default_rng(3).random(65536))}).to_zarr(sys.argv[1], encoding={"t": {"chunks": (32768,)}})`,
      join(sources.dir, "damaged.zarr"),
    ]);
    const chunk = join(sources.dir, "damaged.zarr", "t", "1");
    const bytes = readFileSync(chunk);
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    bytes[0] = 9;
    writeFileSync(chunk, bytes);
    const table = join(sources.dir, "damaged.lance");
    const run = await cliAsync(["import", `${sources.server.url}/damaged.zarr`, table]);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain('"t"');
    expect(run.stderr).toContain('chunk "t/1" decodes to 0 values');
    expect(existsSync(table)).toBe(false);
  });

  it("--sel of dates on a coordinate that is not a time: one clear line", async () => {
    const table = join(sources.dir, "refused.lance");
    const dates = await cliAsync([
      "import",
      `${sources.server.url}/hourly.zarr`,
      table,
      "--sel",
      "lat=2020-01:2020-02",
    ]);
    expect(dates.code).not.toBe(0);
    expect(dates.stderr).toContain('a date, but "lat" is not a CF time coordinate');
    expect(existsSync(table)).toBe(false);
  });

  for (const [i, { flags, isel }] of [
    { flags: ["--isel", "time=3"], isel: { time: 3 } },
    { flags: ["--sel", "time=2020-01-05T03:20,method=nearest", "--isel", "lat=2:5"], isel: { time: 99, lat: [2, 5] } },
    { flags: ["--sel", "lat=58", "--isel", "time=-1"], isel: { time: 239, lat: 2 } },
  ].entries()) {
    it(`--project t ${flags.join(" ")}: each index drops its dim, as xarray's isel(${JSON.stringify(isel)})`, async () => {
      const table = join(sources.dir, `index-${i}.lance`);
      quiet(await cliAsync(["import", `${sources.server.url}/hourly.zarr`, table, "--project", "t", ...flags]));
      const nc = join(sources.dir, `index-${i}.nc`);
      const exported = cli(["export", table, nc]);
      expect(exported.code, exported.stderr).toBe(0);
      const same = runPython(["-c", COMPARE_ISEL, nc, join(sources.dir, "hourly.zarr"), JSON.stringify(isel)]);
      expect(same.trim()).toBe("same");
    });
  }
});

describe.skipIf(skip)("lance-nd import of a Zarr store at an s3:// URL (s3rver)", () => {
  let s3: ObjectStoreServer;
  beforeAll(async () => {
    s3 = await startS3Server("zarr");
    for (const put of await putObjects(s3, folderObjects(join(sources.dir, "hourly.zarr"), sources.dir))) {
      expect(put.status, put.key).toBe(200);
    }
  });
  afterAll(() => s3?.stop());

  it("--storage-option credentials and endpoint: the table holds what an import of the local store holds", async () => {
    const flags = ["--project", "t", "--isel", "time=30:50", "--id", "hourly"];
    const options = storageFlags(s3.storageOptions);
    const fromS3 = join(sources.dir, "from-s3.lance");
    quiet(await cliAsync(["import", "s3://zarr/hourly.zarr", fromS3, ...flags, ...options]));
    const local = join(sources.dir, "from-disk.lance");
    expect(cli(["import", join(sources.dir, "hourly.zarr"), local, ...flags]).code).toBe(0);
    const scan = (table: string) => cli(["scan", table, "--json", "--all-attrs"]).stdout;
    expect(scan(fromS3)).toBe(scan(local));
  });
});

describe.skipIf(fixtureSkipReason() !== undefined)("lance-nd import of a netCDF file at a URL", () => {
  let served: FileServer;
  let folder: string;
  beforeAll(async () => {
    ensureBuilt();
    ensureFixtures();
    folder = tempDir();
    for (const name of ["ocean-classic.nc", "ocean-nc4.nc"] as const) copyFileSync(fixture(name), join(folder, name));
    served = await startFileServer(folder);
  });
  afterAll(() => served?.stop());

  for (const name of ["ocean-classic.nc", "ocean-nc4.nc"]) {
    it(`${name}: the table holds what an import from disk holds`, async () => {
      const fromUrl = join(folder, `${name}-url.lance`);
      const fromDisk = join(folder, `${name}-disk.lance`);
      const run = await cliAsync(["import", `${served.url}/${name}`, fromUrl]);
      expect(run.code).toBe(0);
      const disk = cli(["import", join(folder, name), fromDisk]);
      expect(disk.code).toBe(0);
      // A file at a URL is its root group: from disk, the netCDF-4 file's group
      // "extra" is a dataset of its own, which the URL's import leaves out with a warning.
      const grouped = name === "ocean-nc4.nc";
      if (grouped) expect(run.stderr).toContain("extra");
      else expect(run.stderr.replaceAll(`${served.url}/${name}`, join(folder, name))).toBe(disk.stderr);
      const root = ["--where", `__global_attrs__.id = '${name}'`];
      const scan = (table: string) => cli(["scan", table, "--json", "--all-attrs", ...root]).stdout;
      expect(scan(fromUrl)).toBe(scan(fromDisk));
    });
  }

  it("a netCDF URL with no file (404): one line naming the URL, no table left behind", async () => {
    const table = join(folder, "missing-nc.lance");
    const run = await cliAsync(["import", `${served.url}/missing.nc`, table]);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`${served.url}/missing.nc`);
    expect(existsSync(table)).toBe(false);
  });
});
