/**
 * Reads, exports and serve of whatever rows a table holds (lance-nd README
 * "Datasets"), through the built CLI, against xarray's view of files that
 * ncgen and xarray wrote: a zero-length record dim whole or cut into rows
 * (the shapes of netCDF-C's tst_mslp.cdl and gfs_sample.cdl), a record too
 * big for one row whose file declares its axes first (bigr1.cdl's shape),
 * a `--where` that selects rows in the middle of a `--concat` dataset, and
 * a dataset after `check --repair` removed some of its rows.
 */
import { readdirSync, rmSync, statSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { ncgenCdl, netcdfToolsSkipReason, pythonSkipReason, runPython, runTool } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cliQuiet } from "../commands/checked-runs.js";
import { cli, cliJson, ensureBuilt, tempDir } from "../commands/harness.js";
import { startServe } from "../serve/served.js";

const ORACLE = join(import.meta.dirname, "rows_oracle.py");
const skip =
  pythonSkipReason(
    "rows-read xarray oracle",
    ["numpy", "pandas", "xarray", "netCDF4", "zarr", "fsspec", "aiohttp"],
    "apt-get install python3-xarray python3-netcdf4 python3-zarr python3-fsspec python3-aiohttp",
  ) ?? netcdfToolsSkipReason();

/** One command of rows_oracle.py; its JSON line. */
function oracle<T = Record<string, unknown>>(...args: string[]): T {
  return JSON.parse(runPython([ORACLE, ...args])) as T;
}

/** Expects xarray's view of `sources` (isel'd, narrowed) to be identical to `target`. */
function expectIdentical(sources: string, target: string, isel?: object, variables?: string[]): void {
  const extra = isel === undefined && variables === undefined ? [] : [JSON.stringify(isel ?? {})];
  if (variables !== undefined) extra.push(JSON.stringify(variables));
  const { identical, detail } = oracle<{ identical: boolean; detail: string }>("compare", sources, target, ...extra);
  expect(identical, `${target} is not ${sources}:\n${detail}`).toBe(true);
}

/** Runs the CLI, expecting exit 0 and nothing on stderr; its stdout. */
describe.skipIf(skip !== undefined)("reads and exports of whatever rows a table holds", () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  it("a zero-length record dim (xarray's, pressure-no-records.cdl, forecast-no-records.cdl), whole or cut into rows: netCDF and Zarr exports are the file, title included", () => {
    const sources = [
      oracle<{ path: string }>("zero-length", join(dir, "zero.nc")).path,
      ncgenCdl("pressure-no-records", "nc3", dir),
      ncgenCdl("forecast-no-records", "nc4", dir),
    ];
    for (const source of sources) {
      for (const chunk of [[], ["--chunk", "lat=1"]]) {
        const table = join(dir, `${statSync(source).ino}-${chunk.length}.lance`);
        cli(["import", source, table, ...chunk]);
        const out = `${table}.nc`;
        cliQuiet(["export", table, out]);
        expectIdentical(source, out);
        for (const version of ["2", "3"]) {
          const store = `${table}-v${version}.zarr`;
          const summary = JSON.parse(
            cliQuiet(["export", table, store, "--format", "zarr", "--zarr-version", version, "--json"]),
          ) as { variables: string[]; globalAttrs: string[] };
          expect(summary.globalAttrs).toContain("title");
          expect(summary.variables.length).toBeGreaterThan(1);
          // Debian's zarr 2.13 reads v2 only.
          if (version === "2") expectIdentical(source, store);
        }
      }
    }
  });

  it("forecast-no-records.cdl cut into rows: export --project keeps the coordinates, serve answers .zmetadata and xarray reads the file over it", async () => {
    const source = ncgenCdl("forecast-no-records", "nc3", dir);
    const table = join(dir, "forecast.lance");
    cli(["import", source, table, "--chunk", "lat=2,level=1", "--id", "forecast"]);
    expect(cliJson<{ rows: number }>(["info", table]).rows).toBe(12);
    cliQuiet(["export", table, join(dir, "lat-lon.nc"), "--project", "orography,temperature"]);
    expectIdentical(source, join(dir, "lat-lon.nc"), {}, ["orography", "temperature"]);
    const served = await startServe(table);
    try {
      expectIdentical(source, served.datasets[0]!.url);
    } finally {
      await served.stop();
    }
  });

  it("big-record-axes.cdl (bigr1.cdl's record, axes declared first), cut into 4 rows: every row's chunk_offset follows its grid and the export is the file", () => {
    const source = ncgenCdl("big-record-axes", "nc3", dir);
    const table = join(dir, "bigr.lance");
    expect(cli(["import", source, table]).code).toBe(0);
    const offsets = JSON.parse(cliQuiet(["scan", table, "--project", "var1", "--json"])) as {
      globalAttrs: { chunk_offset: number[] };
    }[];
    expect(offsets.map((row) => row.globalAttrs.chunk_offset)).toEqual([
      [0, 0, 0, 0],
      [0, 26, 0, 0],
      [0, 52, 0, 0],
      [0, 78, 0, 0],
    ]);
    cliQuiet(["export", table, join(dir, "bigr.nc")]);
    expectIdentical(source, join(dir, "bigr.nc"));
    cliQuiet(["export", table, join(dir, "bigr.zarr"), "--format", "zarr", "--zarr-version", "2"]);
    expectIdentical(source, join(dir, "bigr.zarr"));
  });

  describe("a --concat dataset of three files, two rows each", () => {
    let files: string[];
    let table: string;
    beforeAll(() => {
      files = oracle<{ paths: string[] }>("concat-files", dir).paths;
      table = join(dir, "tas.lance");
      cliQuiet(["import", ...files, table, "--concat", "time", "--id", "tas", "--chunk", "time=2"]);
    });

    it("a --where of the middle file's rows is that file: scan and plot --isel count from its start, exports write no chunk_offset", () => {
      for (const where of [
        "__global_attrs__._SourceFile = 'tas_2002.nc'",
        "`__stats__:time`.min >= 731 AND `__stats__:time`.max < 1096",
      ]) {
        const [row] = JSON.parse(
          cliQuiet(["scan", table, "--where", where, "--isel", "time=0", "--project", "tas", "--json"]),
        ) as {
          arrays: { tas: { values: number[] } };
        }[];
        expect(row!.arrays.tas.values).toEqual([100, 101, 102, 103, 104, 105]);
        const plot = JSON.parse(
          cliQuiet(["plot", table, "tas", "--where", where, "--isel", "time=3", "-o", join(dir, "tas.png"), "--json"]),
        ) as { min: number; max: number; title: string };
        expect([plot.min, plot.max]).toEqual([118, 123]);
        expect(plot.title).toContain("2002-01-04");
        cliQuiet(["export", table, join(dir, "2002.nc"), "--where", where]);
        expectIdentical(files[1]!, join(dir, "2002.nc"));
        expect(runTool("ncdump", ["-h", join(dir, "2002.nc")])).not.toContain("chunk_offset");
        rmSync(join(dir, "2002.zarr"), { recursive: true, force: true });
        cliQuiet([
          "export",
          table,
          join(dir, "2002.zarr"),
          "--where",
          where,
          "--format",
          "zarr",
          "--zarr-version",
          "2",
        ]);
        expectIdentical(files[1]!, join(dir, "2002.zarr"));
      }
    });

    it("check --repair removed the middle file's rows: intact steps read, a read across them names the cells and the way back, import --mode replace brings them back", () => {
      const repaired = join(dir, "repaired.lance");
      const concat = ["--concat", "time", "--id", "tas", "--chunk", "time=2"];
      cliQuiet(["import", files[0]!, repaired, ...concat]);
      for (const file of files.slice(1)) cliQuiet(["import", file, repaired, ...concat, "--mode", "append"]);
      // The middle file's fragment: the second data file written.
      const data = join(repaired, "data");
      const [, middle] = readdirSync(data).sort(
        (a, b) => statSync(join(data, a)).mtimeMs - statSync(join(data, b)).mtimeMs,
      );
      truncateSync(join(data, middle!), Math.floor(statSync(join(data, middle!)).size / 2));
      expect(cli(["check", repaired, "--repair"]).code).toBe(0);

      cliQuiet(["export", repaired, join(dir, "steps.nc"), "--isel", "time=9:12"]);
      expectIdentical(files.join(","), join(dir, "steps.nc"), { time: [9, 12] });
      const across = cli(["export", repaired, join(dir, "all.nc")]);
      expect(across.code).toBe(1);
      expect(across.stderr.trim().split("\n")).toHaveLength(1);
      expect(across.stderr).toMatch(
        /no row holds 24 of the 72 cells \[time 0:12, lat 0:3, lon 0:2\] the selection needs \(the first: time 4, lat 0, lon 0\).*import --mode replace/,
      );

      cliQuiet(["import", files[1]!, repaired, ...concat, "--mode", "replace"]);
      cliQuiet(["export", repaired, join(dir, "all.nc")]);
      expectIdentical(files.join(","), join(dir, "all.nc"));
    });
  });
});
