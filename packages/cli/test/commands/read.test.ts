import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tableFromIPC } from "apache-arrow";
import { PNG } from "pngjs";
import { beforeAll, describe, expect, it } from "vitest";
import { type Refusal, expectRefusals } from "./checked-runs.js";
import { hasTool } from "@lance-nd/test-helpers";
import { ensureFixtures, fixture, fixtureSkipReason } from "../fixtures.js";
import { cli, cliBytes, ensureBuilt, tableState, tempDir } from "./harness.js";

const skip = fixtureSkipReason();

describe.skipIf(skip)("reading a table", () => {
  let dir: string;
  let table: string;
  let before: { rows: number; version: number };
  beforeAll(() => {
    ensureFixtures();
    ensureBuilt();
    dir = tempDir();
    table = join(dir, "ocean.lance");
    // ocean-nc4 in 3 chunks along time and its group "extra" as one row, plus the waves file as one row.
    expect(cli(["import", fixture("ocean-nc4.nc"), table, "--chunk", "time=1"]).code).toBe(0);
    expect(cli(["import", fixture("waves-nc4.nc"), table, "--mode", "append"]).code).toBe(0);
    before = tableState(table);
  });

  it("info: format, rows, versions, fragments, size, stats, column defaults", () => {
    const run = cli(["info", table]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^format\s+lance-nd v1$/m);
    expect(run.stdout).toMatch(/^rows\s+5$/m);
    expect(run.stdout).toMatch(/^stats\s+on \(\d+ variables\)$/m);
    const info = JSON.parse(cli(["info", table, "--json"]).stdout) as Record<string, unknown>;
    expect(info).toMatchObject({ formatVersion: 1, rows: 5, stats: true });
    expect(info.bytes).toBeGreaterThan(0);
    expect(info.globalAttrs).toEqual(expect.arrayContaining(["id", "chunk_offset", "title"]));
  });

  it("vars: one line per variable with its type and attribute keys", () => {
    const run = cli(["vars", table]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^sst\s+Float32\s+yes\s+long_name, units, _FillValue, scale_factor, add_offset, valid_range(, _ChunkSizes)?$/m,
    ); // _ChunkSizes: README, Storage attributes
    expect(run.stdout).toMatch(/^name\s+Utf8\s+yes\s+long_name$/m);
  });

  it("scan: one line per row with id, chunk_offset, arrays with type, dims and first values, then a count", () => {
    const run = cli(["scan", table, "--project", "sst,name", "--limit", "2"]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^row 0 {2}id="ocean-nc4\.nc" {2}chunk_offset=\[0, 0, 0, 0\] {2}.*sst float32\(time=1, lat=4, lon=5\) \[100, 200, 300, 400, …\]/,
    );
    expect(lines[0]).toMatch(/name utf8\(lat=4\) \["south", "tropics S", "tropics N", "north"\]/);
    expect(lines[2]).toBe("2 rows");
  });

  it("scan --where on the stats, --ndjson: one JSON row per line", () => {
    const run = cli(["scan", table, "--project", "swh", "--where", "`__stats__:swh`.max > 2.5", "--ndjson"]);
    expect(run.code).toBe(0);
    const rows = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { globalAttrs: { id: string } });
    expect(rows.map((r) => r.globalAttrs.id)).toEqual(["waves-nc4.nc"]);
  });

  it("scan --arrow: an Arrow IPC stream of the nd-arrow encoded rows", () => {
    const run = cliBytes(["scan", table, "--project", "sst", "--arrow"]);
    expect(run.code).toBe(0);
    const rows = tableFromIPC(run.stdout);
    expect(rows.numRows).toBe(5);
    expect(rows.schema.fields.map((f) => f.name)).toEqual(["sst", "__global_attrs__"]);
    expect(rows.schema.fields[0]!.metadata.get("ARROW:extension:name")).toBe("nd_arrow.array");
  });

  it("scan --version reads an earlier version", () => {
    const run = cli(["scan", table, "--version", "1", "--project", "time", "--json"]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as unknown[]).length).toBeLessThan(5);
  });

  it.skipIf(process.env.CI !== "true" && !hasTool("ncdump"))(
    "export assembles the chunks of one dataset into a netCDF-4 file that ncdump reads",
    () => {
      const out = join(dir, "ocean.nc");
      const run = cli(["export", table, out, "--where", "__global_attrs__.id = 'ocean-nc4.nc'"]);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^wrote .*ocean\.nc: \d+ variables on \(time=3, lat=4, lon=5.*\) from 3 rows/);
      const dump = spawnSync("ncdump", [out], { encoding: "utf8" });
      expect(dump.status).toBe(0);
      expect(dump.stdout).toMatch(/float sst\(time, lat, lon\)/);
      expect(dump.stdout).toMatch(/sst:scale_factor = 0\.01f/);
      expect(dump.stdout).toMatch(/:title = "Ocean fixture"/);
      expect(dump.stdout).not.toMatch(/chunk_offset/);
      expect(dump.stdout).toMatch(/ 1100, 1200, 1300, 1400, 1500,\s+1, 2, 3, 4, _,\s+101, 201/);
    },
  );

  it("plot writes a PNG of a 2-D slice of the assembled dataset", () => {
    const out = join(dir, "sst.png");
    const run = cli([
      "plot",
      table,
      "sst",
      "--where",
      "__global_attrs__.id = 'ocean-nc4.nc'",
      "--isel",
      "time=2",
      "-o",
      out,
      "--json",
    ]);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as {
      title: string;
      rows: string;
      cols: string;
      min: number;
      max: number;
      rowsRead: number;
    };
    // --isel reads only the chunk row of time 2 (the dataset is 3 rows, chunked time=1).
    expect(summary).toMatchObject({ rows: "lat", cols: "lon", rowsRead: 1 });
    // CF-decoded: the fill value is missing; 1502 (outside valid_range -500, 1500) stays a
    // value under the default --cf mask, as xarray reads it; all are raw * 0.01 + 20.
    expect(summary.min).toBeCloseTo(20.21, 4);
    expect(summary.max).toBeCloseTo(35.02, 4);
    expect(summary.title).toBe("sst  time=2 (2000-02-29T00:00:00Z)");
    const png = PNG.sync.read(readFileSync(out));
    expect(png.width).toBeGreaterThanOrEqual(360);
    expect(png.height).toBeGreaterThan(100);
  });

  it("failing reads exit with 1 with one line, change nothing and leave no output file", () => {
    const cases: Refusal[] = [
      ["a bad --where", ["scan", table, "--where", "sst >>> 3"], /^lance-nd: cannot scan .* \(/],
      ["an unknown column in --where", ["scan", table, "--where", "nope = 1"], /nope/],
      [
        "an unknown variable to plot",
        ["plot", table, "salinity", "-o", "x.png"],
        /no variable "salinity" in the table \(it has /,
      ],
      [
        "a plot that is not 2-D",
        ["plot", table, "sst", "--where", "__global_attrs__.id = 'ocean-nc4.nc'", "-o", "x.png"],
        /3 dims of size > 1 are left \(time, lat, lon\)/,
      ],
      [
        "an export of several datasets",
        ["export", table, "x.nc"],
        /5 rows match the table and they are not chunks of one dataset/,
      ],
      [
        "an export that matches nothing",
        ["export", table, "x.nc", "--where", "__global_attrs__.id = 'none'"],
        /no row matches --where/,
      ],
      ["a version that does not exist", ["scan", table, "--version", "99"], /99/],
    ];
    expectRefusals(cases, dir);
    expect(tableState(table)).toEqual(before);
    expect(existsSync(join(dir, "x.nc"))).toBe(false);
    expect(existsSync(join(dir, "x.png"))).toBe(false);
  });
});
