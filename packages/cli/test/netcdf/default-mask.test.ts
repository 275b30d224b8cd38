/**
 * The default `--cf mask` keeps every value of the source (CLI README, "CF
 * conventions"): it masks `_FillValue` and `missing_value` only, as xarray
 * does; values outside `valid_range` stay values (masking them is
 * `--cf mask-range`), netCDF's default fill stays a value where there is no
 * `_FillValue`, and a variable whose mask would not come back the same is
 * imported as stored, with one warning line naming it. Each export is held
 * to ncdump and xarray's `identical` against the source.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ncdumpBody, ncgenCdl } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureSkipReason } from "../fixtures.js";
import { cli, cliJson, ensureBuilt, tempDir } from "../commands/harness.js";
import { importExport, xarrayIdentical } from "./as-it-went-in.js";
import { netcdf4Masked, pythonSkipReason } from "./oracle.js";

const skip = fixtureSkipReason() ?? pythonSkipReason();
const MASKED_VALS = "/usr/lib/python3/dist-packages/scipy/io/tests/data/example_3_maskedvals.nc";

interface JsonRow {
  arrays: Record<string, { type: string; values: unknown[] }>;
}

const nulls = (values: readonly unknown[]): number[] => values.flatMap((v, i) => (v === null ? [i] : []));

describe.skipIf(skip !== undefined)(`the default --cf mask loses no value${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  for (const kind of ["nc3", "nc4"] as const) {
    it(`values outside valid_range (${kind}): masked by _FillValue only, exported as the source`, () => {
      const source = ncgenCdl("valid-range-values", kind, dir);
      const { out, table, warnings } = importExport(source, dir, `range-${kind}`);
      expect(warnings).toEqual([]);
      const [row] = cliJson<JsonRow[]>(["scan", table]);
      expect(nulls(row!.arrays.vld_rng!.values)).toEqual([1]);
      expect(row!.arrays.vld_rng!.values[3]).toBe(179);
      // missing_value -1 is masked; the default fill -32767 (no _FillValue) is a value, as xarray reads it.
      expect(nulls(row!.arrays.packed!.values)).toEqual([1]);
      expect(row!.arrays.packed!.values[8]).toBe(-32767);
      expect(ncdumpBody(out)).toBe(ncdumpBody(source));
      expect(xarrayIdentical(source, out, false)).toBe("identical");
      expect(xarrayIdentical(source, out, true)).toBe("identical");
    });
  }

  it("--cf mask-range masks values outside the valid range too, as netCDF4-python does", () => {
    const source = ncgenCdl("valid-range-values", "nc4", dir);
    const table = join(dir, "mask-range.lance");
    const imported = cli(["import", source, table, "--cf", "mask-range", "--json"]);
    expect(imported.stderr).toBe("");
    expect((JSON.parse(imported.stdout) as { cf: string }).cf).toBe("mask-range");
    const [row] = cliJson<JsonRow[]>(["scan", table]);
    const [oracle] = netcdf4Masked(source);
    expect(nulls(row!.arrays.vld_rng!.values)).toEqual(nulls(oracle!.vld_rng!.values));
    expect(nulls(row!.arrays.vld_rng!.values)).toEqual([1, 3, 6, 7, 8]);
    expect(nulls(row!.arrays.packed!.values)).toEqual(nulls(oracle!.packed!.values));
  });

  it("a missing_value other than _FillValue: that variable imported as stored, one warning line, exported as the source", () => {
    const source = ncgenCdl("fill-and-missing", "nc4", dir);
    for (const mode of [[], ["--cf", "decode"]]) {
      const name = `fill-and-missing${mode.join("")}`;
      const { out, table, warnings } = importExport(source, dir, name, mode);
      expect(warnings).toEqual([
        `lance-nd: warning: ${source}: variable "both" imported as stored (as --cf raw): its missing_value differs from its _FillValue, and a masked cell would export as one of them`,
      ]);
      const [row] = cliJson<JsonRow[]>(["scan", table]);
      expect(row!.arrays.both!.values).toEqual([1, 2, 3, 4, 5]);
      expect(nulls(row!.arrays.clean!.values)).toEqual([1, 3]);
      expect(row!.arrays.nofill!.values).toEqual([1, -32767, 3, 4, 5]);
      expect(ncdumpBody(out)).toBe(ncdumpBody(source));
      expect(xarrayIdentical(source, out, false)).toBe("identical");
    }
  });

  it.skipIf(!existsSync(MASKED_VALS))(
    "scipy's example_3_maskedvals.nc imports by default and exports as it was",
    () => {
      const { out, warnings } = importExport(MASKED_VALS, dir, "maskedvals");
      expect(warnings).toEqual([
        `lance-nd: warning: ${MASKED_VALS}: variable "var3_fillvalAndMissingValue" imported as stored (as --cf raw): its missing_value differs from its _FillValue, and a masked cell would export as one of them`,
      ]);
      expect(ncdumpBody(out)).toBe(ncdumpBody(MASKED_VALS));
      expect(xarrayIdentical(MASKED_VALS, out, false)).toBe("identical");
      expect(xarrayIdentical(MASKED_VALS, out, true)).toBe("identical");
    },
  );
});
