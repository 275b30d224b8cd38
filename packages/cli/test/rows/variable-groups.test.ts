/**
 * Rows of variable groups (CLI README, "Rows of an import"): a file of many
 * small variables on dims of their own cannot be cut along one dim within
 * the row budget, so an import groups its variables into rows. Checked
 * through the built CLI against files that ncgen wrote (dcw-shaped.cdl, the
 * shape of GMT's dcw-gmt.nc) and Debian's gmt-dcw `dcw-gmt.nc` itself:
 * exports and serve are the file (xarray `identical`, `ncdump -h` equal), `scan` and
 * `dataset().read()` give a variable's values, and every row stays within
 * the budget.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  ncgenCdl,
  netcdfToolsSkipReason,
  pythonSkipReason,
  runPython,
  runTool,
  skipReason,
} from "@lance-nd/test-helpers";
import { dataset, open, scan } from "lance-nd";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, cli, cliProcess, ensureBuilt, tempDir } from "../commands/harness.js";
import { startServe } from "../serve/served.js";

const ORACLE = join(import.meta.dirname, "rows_oracle.py");
const DCW = "/usr/share/gmt-dcw/dcw-gmt.nc";
const skip =
  pythonSkipReason(
    "variable groups xarray oracle",
    ["numpy", "pandas", "xarray", "netCDF4", "zarr", "fsspec", "aiohttp"],
    "apt-get install python3-xarray python3-netcdf4 python3-zarr python3-fsspec python3-aiohttp",
  ) ?? netcdfToolsSkipReason();
const skipDcw = skip ?? skipReason(existsSync(DCW) ? undefined : `${DCW} is missing (apt-get install gmt-dcw)`);

/** The information line an import prints when it cuts a file by its row budget. */
const CUT_NOTICE = /^lance-nd: .* is more than a row holds .*groups of variables that share no dim.*\n/m;

/** Runs the CLI (through `runner`), expecting exit 0 and nothing on stderr; its stdout. */
function ok(args: readonly string[], runner: (args: readonly string[]) => CliRun = cli): string {
  const run = runner(args);
  expect(`${run.code} ${run.stderr}`, `lance-nd ${args.join(" ")}`).toBe("0 ");
  return run.stdout;
}

/** Imports `source` into `table` with `args` (through `runner`), expecting the notice that it groups the variables. */
function importGrouped(
  source: string,
  table: string,
  args: readonly string[] = [],
  runner: (args: readonly string[]) => CliRun = cli,
): void {
  const run = runner(["import", source, table, ...args]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toMatch(CUT_NOTICE);
}

/** Expects xarray's view of `target` to be identical to `source`'s. */
function expectIdentical(source: string, target: string): void {
  const { identical, detail } = JSON.parse(runPython([ORACLE, "compare", source, target])) as {
    identical: boolean;
    detail: string;
  };
  expect(identical, `${target} is not ${source}:\n${detail}`).toBe(true);
}

/** `ncdump -h` of a file without its first line, which names the file. */
function header(path: string): string {
  return runTool("ncdump", ["-h", path]).split("\n").slice(1).join("\n");
}

/** The bytes of values each table row holds, and the variables it holds, in table order. */
async function tableRows(table: string): Promise<{ bytes: number; variables: string[] }[]> {
  const rows: { bytes: number; variables: string[] }[] = [];
  for await (const row of scan(await open(table))) {
    const arrays = row.arrays();
    rows.push({
      bytes: arrays.reduce((n, [, array]) => n + array.values.byteLength, 0),
      variables: arrays.map(([name]) => name),
    });
  }
  return rows;
}

describe.skipIf(skip !== undefined)("rows of variable groups", () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("dcw-shaped.cdl (40 variables on 20 dims of their own) with --row-size 1KiB: grouped rows within the budget, exports, serve and reads are the file", async () => {
    const source = ncgenCdl("dcw-shaped", "nc4", dir);
    const table = join(dir, "dcw-shaped.lance");
    importGrouped(source, table, ["--row-size", "1KiB"]);

    const rows = await tableRows(table);
    // 38 pairs packed a few to a row, and the one larger pair (6,000 bytes) cut into rows of 1 KiB.
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      expect(row.variables.length).toBeLessThan(40);
      expect(row.bytes).toBeLessThanOrEqual(1024);
    }
    expect(new Set(rows.flatMap((row) => row.variables)).size).toBe(40);

    const nc = join(dir, "dcw-shaped.nc");
    ok(["export", table, nc, "--format", "netcdf4"]);
    expectIdentical(source, nc);
    expect(header(nc)).toBe(header(source));
    const store = join(dir, "dcw-shaped.zarr");
    ok(["export", table, store, "--format", "zarr", "--zarr-version", "2"]);
    expectIdentical(source, store);
    const served = await startServe(table);
    try {
      expectIdentical(source, served.datasets[0]!.url);
    } finally {
      await served.stop();
    }

    const want = JSON.parse(runPython([ORACLE, "values", source, JSON.stringify({ USMD_length: [740, 1260] })])) as {
      USMD_lat: { values: number[] };
      AD_lon: { values: number[] };
    };
    const scanned = JSON.parse(
      ok(["scan", table, "--project", "USMD_lat", "--isel", "USMD_length=740:1260", "--json"]),
    ) as { arrays: { USMD_lat: { values: number[] } } }[];
    expect(scanned.length).toBeGreaterThan(1);
    expect(scanned.flatMap((row) => row.arrays.USMD_lat.values)).toEqual(want.USMD_lat.values);
    const read = await (await dataset(await open(table))).read(["AD_lon", "USMD_lat"]);
    expect(Array.from(read.get("AD_lon")!.values, Number)).toEqual(want.AD_lon.values);
    const whole = JSON.parse(runPython([ORACLE, "values", source, "{}"])) as { USMD_lat: { values: number[] } };
    expect(Array.from(read.get("USMD_lat")!.values, Number)).toEqual(whole.USMD_lat.values);
  });
});

describe.skipIf(skipDcw !== undefined)(`Debian's gmt-dcw dcw-gmt.nc${skipDcw ? ` (${skipDcw})` : ""}`, () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("imports with the default budget in rows of at most 1 MiB, and its netCDF-4 export has the file's ncdump -h", async () => {
    const table = join(dir, "dcw.lance");
    // The wide file's import and export each in a process of their own, as a user runs them: in the test
    // file's long-lived program process they took up to three times as long.
    importGrouped(DCW, table, [], (args) => cliProcess(args));
    const rows = await tableRows(table);
    expect(rows.length).toBeGreaterThan(60);
    for (const row of rows) expect(row.bytes).toBeLessThanOrEqual(2 ** 20);
    expect(rows.reduce((n, row) => n + row.variables.length, 0)).toBeGreaterThanOrEqual(1046);

    const nc = join(dir, "dcw.nc");
    const summary = ok(["export", table, nc, "--format", "netcdf4"], (args) => cliProcess(args));
    expect(header(nc)).toBe(header(DCW));
    // One short line: the first dims of the file's hundreds, and how many more.
    expect(summary).toMatch(
      /^wrote .*dcw\.nc: 1046 variables on \(GD_length=119, PM_length=2992, .* and \d+ more dims\) from \d+ rows\n$/,
    );
    expect(summary.length).toBeLessThan(300);
  });
});
