/**
 * Attribute types come back as each file had them (CLI README, "Types over
 * many files"): files whose `sst` is packed with float32 factors, packed
 * with doubles, or a float, imported into one table with
 * `--cf decode --casting safe` (the table holds one type per attribute),
 * each export is its source to ncdump and to xarray's `identical`.
 */
import { join } from "node:path";
import { ncdumpBody, ncgenCdl } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureSkipReason } from "../fixtures.js";
import { cli, ensureBuilt, tempDir } from "../commands/harness.js";
import { xarrayIdentical } from "./as-it-went-in.js";
import { pythonSkipReason } from "./oracle.js";

const skip = fixtureSkipReason() ?? pythonSkipReason();
const SOURCES = ["packed-float-factors", "packed-double-factors", "unpacked-float"];

describe.skipIf(skip !== undefined)(`attribute types of files that share a table${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  for (const mode of ["decode", "mask"]) {
    it(`--cf ${mode} --casting safe: each file's export keeps the type of sst, _FillValue, valid_range, scale_factor and add_offset`, () => {
      const sources = SOURCES.map((name) => ncgenCdl(name, "nc4", dir));
      const table = join(dir, `shared-${mode}.lance`);
      const imported = cli(["import", ...sources, table, "--cf", mode, "--casting", "safe"]);
      expect(imported.stderr).toBe("");
      expect(imported.code).toBe(0);
      for (const [i, source] of sources.entries()) {
        const out = join(dir, `${SOURCES[i]}-${mode}.nc`);
        const run = cli(["export", table, out, "--where", `__global_attrs__.id = '${SOURCES[i]}-nc4.nc'`]);
        expect(run.stderr, SOURCES[i]).toBe("");
        expect(ncdumpBody(out), SOURCES[i]).toBe(ncdumpBody(source));
        expect(xarrayIdentical(source, out, false), SOURCES[i]).toBe("identical");
      }
    });
  }
});
