import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureFixtures, fixture, fixtureSkipReason } from "../fixtures.js";
import { cli, ensureBuilt, tableState, tempDir } from "./harness.js";

const skip = fixtureSkipReason();

interface JsonRow {
  globalAttrs: Record<string, unknown>;
  arrays: Record<
    string,
    { type: string; dims: { name: string; size: number }[]; attrs: Record<string, unknown>; values: unknown[] }
  >;
}

function scanJson(table: string, ...args: string[]): JsonRow[] {
  const run = cli(["scan", table, "--json", ...args]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as JsonRow[];
}

describe.skipIf(skip)("import", () => {
  let dir: string;
  beforeAll(() => {
    ensureFixtures();
    ensureBuilt();
    dir = tempDir();
  });

  it("netCDF-3, --cf raw: every variable with dims and attributes; fill values and scale/offset stay attributes; the unlimited dim is a dim", () => {
    const table = join(dir, "classic.lance");
    const run = cli(["import", fixture("ocean-classic.nc"), table, "--cf", "raw"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^imported 1 file .* as 1 row into .*classic\.lance .*version \d+, 1 rows in the table/);
    const [row] = scanJson(table);
    expect(row!.globalAttrs).toMatchObject({
      id: "ocean-classic.nc",
      title: "Ocean fixture",
      Conventions: "CF-1.8",
      version: 3,
    });
    const sst = row!.arrays.sst!;
    expect(sst.type).toBe("Float32");
    expect(sst.dims).toEqual([
      { name: "time", size: 3 },
      { name: "lat", size: 4 },
      { name: "lon", size: 5 },
    ]);
    expect(sst.attrs._FillValue).toBe(-999);
    expect(sst.attrs.scale_factor).toBeCloseTo(0.01, 6);
    expect(sst.attrs.add_offset).toBe(20);
    expect(sst.values.slice(15, 20)).toEqual([1, 2, 3, 4, -999]); // raw, not unpacked or masked
    expect(row!.arrays.station!.values).toEqual(["ALPHA", "BRAVO-12", "C"]);
    expect(row!.arrays.mask!.attrs.flag_values).toEqual([0, 1]);
  });

  it("netCDF-4: strings, 64-bit integers, unsigned types; a group is a dataset of its own", () => {
    const table = join(dir, "nc4.lance");
    const run = cli(["import", fixture("ocean-nc4.nc"), table, "--compression", "zstd:3"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(scanJson(table, "--project", "hidden").map((r) => [r.globalAttrs.id, Object.keys(r.arrays)])).toEqual([
      ["ocean-nc4.nc", []],
      ["ocean-nc4.nc/extra", ["hidden"]],
    ]);
    const [row] = scanJson(table, "--project", "name,big,flags");
    expect(row!.arrays.name!.values).toEqual(["south", "tropics S", "tropics N", "north"]);
    expect(row!.arrays.big!.type).toBe("Int64");
    expect(row!.arrays.big!.values[3]).toBe("9007199254740993");
    expect(row!.arrays.flags!.type).toBe("Uint8");
    expect(row!.arrays.flags!.attrs._FillValue).toBe(255);
    expect(Object.keys(row!.arrays)).toEqual(["name", "big", "flags"]);
  });

  it("two files with different variables go into one table (schema evolution), one row each", () => {
    const table = join(dir, "both.lance");
    const run = cli(["import", fixture("ocean-nc4.nc"), fixture("waves-nc4.nc"), table, "--json"]);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as { files: number; rows: number; totalRows: number; variables: string[] };
    expect(summary).toMatchObject({ files: 2, rows: 3, totalRows: 3 }); // ocean-nc4.nc's group "extra" is a row
    expect(summary.variables).toEqual(expect.arrayContaining(["sst", "swh", "peak_period"]));
    const vars = JSON.parse(cli(["vars", table, "--json"]).stdout) as { name: string; type: string; stats: boolean }[];
    expect(vars.map((v) => v.name)).toEqual(expect.arrayContaining(["sst", "swh", "peak_period", "name"]));
    expect(vars.find((v) => v.name === "swh")).toMatchObject({ type: "Float32", stats: true });
    const rows = scanJson(table, "--project", "swh,sst", "--where", "__global_attrs__.id = 'waves-nc4.nc'");
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]!.arrays)).toEqual(["swh"]); // the waves file has no sst
    expect(rows[0]!.globalAttrs.title).toBe("Waves fixture");
  });

  it("--chunk cuts a file into rows with chunk_offset; --mode append adds to the table", () => {
    const table = join(dir, "chunked.lance");
    expect(cli(["import", fixture("ocean-64bit.nc"), table, "--chunk", "time=1", "--id", "ocean"]).code).toBe(0);
    expect(tableState(table).rows).toBe(3);
    const rows = scanJson(table, "--project", "sst");
    expect(rows.map((r) => r.globalAttrs.chunk_offset)).toEqual([
      [0, 0, 0],
      [1, 0, 0],
      [2, 0, 0],
    ]);
    expect(rows.every((r) => r.globalAttrs.id === "ocean")).toBe(true);
    expect(cli(["import", fixture("ocean-classic.nc"), table, "--mode", "append"]).code).toBe(0);
    expect(tableState(table).rows).toBe(4);
  });

  it("a failing import exits with 1, says why in one line, and leaves the table as it was", () => {
    const table = join(dir, "kept.lance");
    expect(cli(["import", fixture("ocean-classic.nc"), table]).code).toBe(0);
    const before = tableState(table);
    const cases: [string, string[], RegExp][] = [
      [
        "a missing file",
        [fixture("waves-nc4.nc"), "/nonexistent/x.nc", table, "--mode", "append"],
        /\/nonexistent\/x\.nc: no such file/,
      ],
      ["a corrupt file", [fixture("corrupt.nc"), table, "--mode", "append"], /corrupt\.nc: /],
      [
        "a file that is not netCDF",
        [fixture("waves-nc4.nc"), join(import.meta.dirname, "harness.ts"), table, "--mode", "append"],
        /not a netCDF file/,
      ],
      [
        "a chunk dim the file lacks",
        [fixture("waves-nc4.nc"), table, "--mode", "append", "--chunk", "depth=2"],
        /--chunk names depth, which the file does not have/,
      ],
      [
        "--id with several files",
        [fixture("waves-nc4.nc"), fixture("ocean-nc4.nc"), table, "--mode", "append", "--id", "x"],
        /--id names one row set/,
      ],
      ["a create of an existing table", [fixture("waves-nc4.nc"), table], /exists/],
    ];
    for (const [what, args, message] of cases) {
      const run = cli(["import", ...args]);
      const errors = run.stderr
        .trim()
        .split("\n")
        .filter((l) => !l.includes("warning:"));
      expect({ what, code: run.code, lines: errors.length }).toEqual({ what, code: 1, lines: 1 });
      expect(errors[0], what).toMatch(/^lance-nd: cannot import into .*kept\.lance \(.*\)$/);
      expect(errors[0], what).toMatch(message);
    }
    // Versions only grow: the same version after all of them means none changed the table.
    expect(tableState(table)).toEqual(before);
  });
});
