/**
 * Region reads against xarray: a real netCDF file (xarray's own test file
 * example_1.nc: temp(time, level, lat, lon), rh(time, lat, lon)) imported
 * chunked with the built command line, then read with lance-nd's
 * `dataset(...).isel / sel`; scripts/xarray-dataset-oracle.py writes what
 * xarray returns for the same selections. Compared value by value.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { dataset, open } from "lance-nd";
import type { Dataset } from "lance-nd";
import { callPython, pythonSkipReason, skipReason } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "./commands/harness.js";

const NC = "/usr/lib/python3/dist-packages/xarray/tests/data/example_1.nc";
const SCRIPT = join(import.meta.dirname, "..", "scripts", "xarray-dataset-oracle.py");

interface OracleCase {
  name: string;
  isel?: Record<string, number | [number, number]>;
  sel?: Record<string, number | [number, number]>;
  method?: "nearest";
  arrays: Record<string, { dims: [string, number][]; values: number[] }>;
}

const reason =
  pythonSkipReason("xarray oracle", ["xarray"], "apt-get install python3-xarray") ??
  skipReason(existsSync(NC) ? undefined : `xarray oracle skipped: ${NC} not found (apt-get install python3-xarray)`);

describe.skipIf(reason !== undefined)(
  "dataset region reads against xarray (example_1.nc, chunked lat=2, lon=4)",
  () => {
    let cases: OracleCase[];
    let ds: Dataset;
    beforeAll(async () => {
      ensureBuilt();
      const dir = tempDir();
      const out = join(dir, "oracle.json");
      const run = callPython([SCRIPT, NC, out]);
      if (run.status !== 0) throw new Error(`oracle script failed: ${run.stderr}`);
      cases = JSON.parse(readFileSync(out, "utf8")) as OracleCase[];
      const table = join(dir, "example.lance");
      // Raw values, as the oracle reads them: this test is about the region, not CF masking.
      const imported = cli(["import", NC, table, "--chunk", "lat=2,lon=4", "--cf", "raw"]);
      if (imported.code !== 0) throw new Error(imported.stderr);
      ds = await dataset(await open(table));
    });

    it("the file is 9 chunk rows on the grid time 1, level 4, lat 5, lon 10", () => {
      expect(ds.chunkCount).toBe(9);
      expect(ds.dims).toEqual([
        { name: "time", size: 1 },
        { name: "level", size: 4 },
        { name: "lat", size: 5 },
        { name: "lon", size: 10 },
      ]);
    });

    it("every isel / sel case equals xarray's result, value by value", async () => {
      expect(cases.length).toBeGreaterThanOrEqual(7);
      for (const c of cases) {
        const view =
          c.isel !== undefined ? ds.isel(c.isel) : ds.sel(c.sel!, c.method === undefined ? {} : { method: c.method });
        const got = await view.read();
        const arrays = Object.fromEntries(
          got.arrays().map(([name, a]) => [
            name,
            {
              dims: a.dims.map((d) => [d.name, d.size]),
              values: Array.from(a.values as Iterable<number | bigint>, Number),
            },
          ]),
        );
        const want = Object.fromEntries(
          Object.entries(c.arrays).map(([name, a]) => [
            name,
            {
              dims: a.dims,
              values: a.values.map((v) => (got.get(name)?.type.toString() === "Float32" ? Math.fround(v) : v)),
            },
          ]),
        );
        expect({ case: c.name, arrays }).toEqual({ case: c.name, arrays: want });
      }
    });
  },
);
