/**
 * `lance-nd export --format zarr` of tables of several rows, run through the
 * built CLI: rows stream into the store one at a time, one Zarr chunk per
 * table row, a selection that cuts rows written in pieces. Checked with
 * xarray's `open_zarr` (v2) and the plain-Python reader of the v3 spec
 * (packages/zarr's fixture scripts, called by path) against xarray's view
 * of the store the table was imported from; and the export's peak memory.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { write } from "lance-nd";
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, cli, ensureBuilt, tempDir } from "./harness.js";

const SCRIPTS = join(import.meta.dirname, "..", "..", "..", "zarr", "fixtures");

const skip =
  pythonSkipReason(
    "zarr export CLI tests",
    ["numpy", "xarray", "zarr"],
    "apt-get install python3-xarray python3-zarr",
  ) !== undefined;

function python(script: string, ...args: string[]): string {
  return runPython([join(SCRIPTS, script), ...args]);
}

function exported(table: string, out: string, ...args: string[]): Record<string, unknown> {
  const run = cli(["export", table, out, "--format", "zarr", "--json", ...args]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

function chunkShape(store: string, name: string): number[] {
  return (JSON.parse(readFileSync(join(store, name, ".zarray"), "utf8")) as { chunks: number[] }).chunks;
}

describe.skipIf(skip)("lance-nd export --format zarr of a table of several rows", () => {
  let dir: string;
  let cfStore: string;
  let table: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    const stores = join(dir, "stores");
    mkdirSync(stores);
    python("xarray_v2_stores.py", stores);
    cfStore = join(stores, "cf.zarr");
    // 3 rows of 2 time steps each: temp (time 6, lat 5, lon 7) with coordinates, strings and flags.
    table = join(dir, "rows.lance");
    const run = cli(["import", cfStore, table, "--chunk", "time=2", "--cf", "raw", "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ rows: 3 });
  });

  it("v2, one chunk per row: xr.open_zarr sees the store the table came from", () => {
    const out = join(dir, "rows-v2.zarr");
    expect(exported(table, out, "--zarr-version", "2")).toMatchObject({
      rows: 3,
      grid: [
        { name: "time", size: 6 },
        { name: "lat", size: 5 },
        { name: "lon", size: 7 },
      ],
    });
    expect(chunkShape(out, "temp")).toEqual([2, 5, 7]);
    expect(chunkShape(out, "time")).toEqual([2]);
    expect(chunkShape(out, "station")).toEqual([5]);
    expect(JSON.parse(python("xarray_same.py", cfStore, out))).toEqual({ identical: true });
  });

  it("v2, a selection that cuts rows (--isel time=1:6,lat=1:4): chunks of the rows' size, xarray sees the same window", () => {
    const out = join(dir, "window-v2.zarr");
    expect(exported(table, out, "--zarr-version", "2", "--isel", "time=1:6,lat=1:4")).toMatchObject({ rows: 3 });
    expect(chunkShape(out, "temp")).toEqual([2, 3, 7]);
    expect(JSON.parse(python("xarray_same.py", cfStore, out, "--isel", "time=1:6,lat=1:4"))).toEqual({
      identical: true,
    });
  });

  it("v3 with --isel and --sel: the spec reader decodes xarray's values of the window, array by array", () => {
    const out = join(dir, "window-v3.zarr");
    expect(exported(table, out, "--zarr-version", "3", "--isel", "time=1:5", "--sel", "lat=-5:5")).toMatchObject({
      rows: 3,
    });
    const spec = JSON.parse(python("v3_spec_check.py", out)) as {
      arrays: Record<string, { shape: number[]; chunk_shape: number[]; values: unknown[] }>;
    };
    const view = JSON.parse(python("xarray_view.py", cfStore, "--isel", "time=1:5,lat=1:4")) as {
      variables: Record<string, { shape: number[]; values: unknown[] }>;
    };
    expect(Object.keys(spec.arrays).sort()).toEqual(Object.keys(view.variables).sort());
    for (const [name, { shape, values }] of Object.entries(view.variables)) {
      expect(spec.arrays[name]!.shape, name).toEqual(shape);
      expect(spec.arrays[name]!.values, name).toEqual(values);
    }
    expect(spec.arrays.temp!.chunk_shape).toEqual([2, 3, 7]);
  });

  it("--chunks sets the grid; the codec is the table's encoding, or --compression none|zstd:<level>; deflate is refused in one line", () => {
    const out = join(dir, "chunks-v2.zarr");
    exported(table, out, "--zarr-version", "2", "--chunks", "time=4,lon=3", "--compression", "zstd:7");
    expect(chunkShape(out, "temp")).toEqual([4, 5, 3]);
    const zarray = JSON.parse(readFileSync(join(out, "temp", ".zarray"), "utf8")) as { compressor: unknown };
    expect(zarray.compressor).toEqual({ id: "zstd", level: 7 });
    expect(JSON.parse(python("xarray_same.py", cfStore, out))).toEqual({ identical: true });
    const plain = join(dir, "plain-v3.zarr");
    exported(table, plain, "--zarr-version", "3", "--compression", "none");
    const meta = JSON.parse(readFileSync(join(plain, "temp", "zarr.json"), "utf8")) as { codecs: { name: string }[] };
    expect(meta.codecs.map((c) => c.name)).toEqual(["bytes"]);
    // Without --compression the codec follows the table's encoding (lance-nd's default, zstd 3, or none).
    const compressor = (store: string) =>
      (JSON.parse(readFileSync(join(store, "temp", ".zarray"), "utf8")) as { compressor: unknown }).compressor;
    exported(table, join(dir, "default-v2.zarr"), "--zarr-version", "2");
    expect(compressor(join(dir, "default-v2.zarr"))).toEqual({ id: "zstd", level: 3 });
    const uncompressed = join(dir, "uncompressed.lance");
    expect(cli(["import", cfStore, uncompressed, "--chunk", "time=2", "--compression", "none"]).code).toBe(0);
    exported(uncompressed, join(dir, "as-table-v2.zarr"), "--zarr-version", "2");
    expect(compressor(join(dir, "as-table-v2.zarr"))).toBeNull();
    const refused = cli(["export", table, join(dir, "deflate.zarr"), "--format", "zarr", "--compression", "deflate"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(/--compression deflate does not go with --format zarr/);
    expect(existsSync(join(dir, "deflate.zarr"))).toBe(false);
    const badChunks = cli(["export", table, join(dir, "depth.zarr"), "--format", "zarr", "--chunks", "depth=2"]);
    expect([badChunks.code, badChunks.stderr.trim().split("\n").length]).toEqual([1, 1]);
    expect(badChunks.stderr).toContain(
      "--chunks names depth, which the exported dataset does not have (its dims: time, lat, lon)",
    );
    expect(existsSync(join(dir, "depth.zarr"))).toBe(false);
  });

  it("a netCDF import goes out without netCDF storage attributes and with float attributes as floats: xarray writes it to netCDF", () => {
    const nc = join(dir, "stored.nc");
    runPython([
      "-c",
      `import sys, numpy as np, xarray as xr
ds = xr.Dataset({"tas": (("time", "lat"), np.arange(6, dtype="f4").reshape(3, 2), {"valid_range": np.array([0.0, 1.0]), "scale": 2.0, "n": 5})},
                coords={"time": [0, 1, 2], "lat": [10.0, 20.0]}, attrs={"g": 3, "h": 1.0})
ds.to_netcdf(sys.argv[1], unlimited_dims=["time"], encoding={"tas": {"zlib": True, "shuffle": True, "chunksizes": (1, 2)}})`,
      nc,
    ]);
    const stored = join(dir, "stored.lance");
    expect(cli(["import", nc, stored]).code).toBe(0);
    const out = join(dir, "stored-v2.zarr");
    exported(stored, out, "--zarr-version", "2");
    const seen = runPython([
      "-c",
      `import sys, json, xarray as xr
ds = xr.open_zarr(sys.argv[1])
ds.to_netcdf(sys.argv[2])
kind = lambda v: [kind(x) for x in v] if isinstance(v, list) else type(v).__name__
print(json.dumps({"global": {k: kind(v) for k, v in ds.attrs.items()}, "tas": {k: kind(v) for k, v in ds.tas.attrs.items()}}))`,
      out,
      join(dir, "stored-back.nc"),
    ]);
    expect(JSON.parse(seen)).toEqual({
      global: { g: "int", h: "float" },
      tas: { valid_range: ["float", "float"], scale: "float", n: "int" },
    });
  });

  it("a table of several datasets is refused in one line naming their ids and the --where that selects one", () => {
    const data = "/usr/lib/python3/dist-packages/xarray/tests/data";
    const two = join(dir, "two.lance");
    expect(cli(["import", join(data, "example_1.nc"), join(data, "bears.nc"), two]).code).toBe(0);
    const run = cli(["export", two, join(dir, "two.zarr"), "--format", "zarr"]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(
      `hold 2 datasets (ids example_1.nc, bears.nc); select one, e.g. --where "__global_attrs__.id = 'example_1.nc'"`,
    );
    expect(existsSync(join(dir, "two.zarr"))).toBe(false);
    const one = exported(two, join(dir, "bears.zarr"), "--where", "__global_attrs__.id = 'bears.nc'");
    expect(one).toMatchObject({ rows: 1, grid: [{ name: "i" }, { name: "j" }, { name: "l" }] });
  });
});

describe("lance-nd export --format zarr streams", () => {
  const ROWS = 64;
  const SIDE = 1024; // one row: 1024 x 1024 float32 = 4 MiB; the table: 256 MiB
  let dir: string;
  let table: string;
  beforeAll(async () => {
    ensureBuilt();
    dir = tempDir();
    table = join(dir, "big.lance");
    const rows = Array.from({ length: ROWS }, (_, t) => {
      const values = new Float32Array(SIDE * SIDE);
      for (let i = 0; i < values.length; i += 997) values[i] = t + i;
      return new NdRecordBatch(
        {
          v: NdArray.from(values, { dims: { time: 1, y: SIDE, x: SIDE } }),
          time: NdArray.from(new Float64Array([t]), { dims: { time: 1 } }),
        },
        { id: "big", chunk_offset: attr.uint32([t, 0, 0]) },
      );
    });
    await write(table, rows);
  });

  it("peak RSS exporting 64 rows of 4 MiB (256 MiB) grows less than half the table over exporting 4 of them", () => {
    const probe = join(dir, "max-rss.cjs");
    // VmHWM: the peak RSS of this program (ru_maxrss would count the forking test process too).
    writeFileSync(
      probe,
      `process.on("exit", () => { const fs = require("node:fs"); fs.writeFileSync(process.env.RSS_FILE, /VmHWM:\\s*(\\d+)/.exec(fs.readFileSync("/proc/self/status", "utf8"))[1]); });\n`,
    );
    const peakMiB = (out: string, ...args: string[]) => {
      const file = join(dir, `${out}.rss`);
      const run = spawnSync(
        process.execPath,
        [
          "--require",
          probe,
          CLI,
          "export",
          table,
          join(dir, out),
          "--format",
          "zarr",
          "--compression",
          "none",
          ...args,
        ],
        { encoding: "utf8", env: { ...process.env, RSS_FILE: file } },
      );
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      return Number(readFileSync(file, "utf8")) / 1024;
    };
    const few = peakMiB("few.zarr", "--isel", "time=0:4");
    const all = peakMiB("all.zarr");
    console.log(`export peak RSS: 4 rows ${few.toFixed(0)} MiB, 64 rows ${all.toFixed(0)} MiB (the table: 256 MiB)`);
    // Assembling the dataset first would add the whole 256 MiB; streaming holds about one row plus what GC has not freed yet.
    expect(all - few).toBeLessThan(128);
  });
});
