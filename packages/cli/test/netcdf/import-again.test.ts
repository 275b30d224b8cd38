import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runTool } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cliSucceeds } from "../commands/checked-runs.js";
import { cli, ensureBuilt, tableState, tempDir } from "../commands/harness.js";
import { pythonSkipReason, xarrayFixtures } from "./oracle.js";

const skip = pythonSkipReason();

describe.skipIf(skip !== undefined)(`importing again${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  let fixtures: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    fixtures = xarrayFixtures();
  });

  it("an import with another --cf mode than the table's is refused naming both; the table stays as it was", () => {
    const table = join(dir, "modes.lance");
    cliSucceeds(["import", join(fixtures, "packed.nc"), table, "--cf", "mask"]);
    const before = tableState(table);
    const run = cli(["import", join(fixtures, "unpacked.nc"), table, "--mode", "append", "--cf", "decode"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/created with --cf mask; this import uses --cf decode/);
    expect(tableState(table)).toEqual(before);
  });

  it("--mode append and replace without --cf use the table's mode: a decode table takes more files decoded", () => {
    const table = join(dir, "decoded.lance");
    cliSucceeds(["import", join(fixtures, "packed.nc"), table, "--cf", "decode"]);
    const summaries = [
      cliSucceeds(["import", join(fixtures, "packed.nc"), table, "--mode", "append", "--id", "again", "--json"]),
      cliSucceeds(["import", join(fixtures, "packed.nc"), table, "--mode", "replace", "--json"]),
    ].map((out) => JSON.parse(out) as { cf: string; totalRows: number });
    expect(summaries).toMatchObject([
      { cf: "decode", totalRows: 2 },
      { cf: "decode", totalRows: 2 },
    ]);
    const rows = JSON.parse(cliSucceeds(["scan", table, "--json"])) as { arrays: Record<string, { type: string }> }[];
    const types = rows.map((row) => Object.fromEntries(Object.entries(row.arrays).map(([k, v]) => [k, v.type])));
    expect(types[0]).toEqual(types[1]);
  });

  it("appending an id already in the table is an error naming it; --mode replace swaps the rows in two commits", () => {
    const table = join(dir, "again.lance");
    cliSucceeds(["import", join(fixtures, "packed.nc"), table, "--chunk", "time=1"]);
    const before = tableState(table);
    const run = cli(["import", join(fixtures, "packed.nc"), table, "--mode", "append"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/already has rows with id "packed\.nc"; use --mode replace/);
    expect(tableState(table)).toEqual(before);
    for (let round = 1; round <= 2; round++) {
      const summary = JSON.parse(
        cliSucceeds(["import", join(fixtures, "packed.nc"), table, "--mode", "replace", "--chunk", "time=1", "--json"]),
      ) as { replacedRows: number; totalRows: number };
      expect(summary).toMatchObject({ replacedRows: 3, totalRows: 3 });
      expect(tableState(table)).toEqual({ rows: 3, version: before.version + 2 * round });
    }
  });

  it("a failed --mode create leaves no table folder behind", () => {
    const table = join(dir, "never.lance");
    const run = cli(["import", join(fixtures, "packed.nc"), "/nonexistent/file.nc", table]);
    expect(run.code).toBe(1);
    expect(existsSync(table)).toBe(false);
    const late = cli(["import", join(fixtures, "packed.nc"), table, "--chunk", "nope=1"]);
    expect(late.code).toBe(1);
    expect(existsSync(table)).toBe(false);
  });

  it("types are planned over all files: the order of the files does not change the table", () => {
    const types = (order: string[], name: string): Record<string, string> => {
      const table = join(dir, name);
      cliSucceeds(["import", ...order.map((f) => join(fixtures, f)), table, "--cf", "decode", "--casting", "promote"]);
      const vars = JSON.parse(cliSucceeds(["vars", table, "--json"])) as { name: string; type: string }[];
      return Object.fromEntries(vars.map((v) => [v.name, v.type]));
    };
    const ab = types(["packed.nc", "unpacked.nc"], "ab.lance");
    const ba = types(["unpacked.nc", "packed.nc"], "ba.lance");
    expect(ab).toEqual(ba);
    expect(ab).toMatchObject({ sst: "Float32", lat: "Float64", time: "Timestamp<SECOND, UTC>" });
  });

  it("attributes are planned over all files: a number and a list join as a list; text against numbers is refused naming both files", () => {
    // Three small netCDF-4 files made with ncgen: a number where another file has a list, and text where another has numbers.
    const make = (name: string, attrs: string): string => {
      const cdl = join(dir, `${name}.cdl`);
      writeFileSync(cdl, `netcdf ${name} { dimensions: x = 2 ; variables: float v(x) ; ${attrs} data: v = 1, 2 ; }`);
      runTool("ncgen", ["-k", "nc4", "-o", join(dir, `${name}.nc`), cdl]);
      return join(dir, `${name}.nc`);
    };
    const list = make("levels-list", 'v:levels = 1, 2 ; v:note = "text" ;');
    const scalar = make("levels-one", 'v:levels = 3s ; v:note = "more text" ;');
    const numeric = make("note-number", "v:levels = 4 ; v:note = 5 ;");
    for (const order of [
      [list, scalar],
      [scalar, list],
    ]) {
      const table = join(dir, `levels-${order[0] === list ? "ab" : "ba"}.lance`);
      cliSucceeds(["import", ...order, table, "--casting", "promote"]);
      const rows = JSON.parse(cliSucceeds(["scan", table, "--json"])) as {
        globalAttrs: { id: string };
        arrays: Record<string, { attrs: Record<string, unknown> }>;
      }[];
      const levels = Object.fromEntries(rows.map((r) => [r.globalAttrs.id, r.arrays.v!.attrs.levels]));
      expect(levels).toEqual({ "levels-list.nc": [1, 2], "levels-one.nc": [3] });
    }
    for (const casting of ["no", "promote"]) {
      const table = join(dir, `note-${casting}.lance`);
      const run = cli(["import", list, numeric, table, "--casting", casting]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `attribute "note" of variable "v" has types that no casting joins: Utf8 in ${list}, Int32 in ${numeric}`,
      );
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(existsSync(table)).toBe(false);
    }
  });
});
