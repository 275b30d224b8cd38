/**
 * `--cf mask` (the default) never changes a value on a round trip (CLI
 * README, "CF conventions"): scipy's example_3_maskedvals.nc holds a
 * variable with `_FillValue = 1` and `missing_value = 2` and both in its
 * cells, which export could only write back as 1. Import keeps that
 * variable as stored, with a warning naming it; with `--cf raw` the export
 * is the file again, as ncdump prints it. A Zarr store with the same
 * markers is kept alike.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hasTool, ncdumpBody, skipReason } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "../commands/harness.js";

const MASKED_VALS = "/usr/lib/python3/dist-packages/scipy/io/tests/data/example_3_maskedvals.nc";
const skip =
  skipReason(
    existsSync(MASKED_VALS) && hasTool("ncdump")
      ? undefined
      : `skipped: ${MASKED_VALS} (python3-scipy) or ncdump (netcdf-bin) missing`,
  ) !== undefined;

describe.skipIf(skip)("a mask that export could not undo keeps the variable as stored", () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  it("example_3_maskedvals.nc under --cf mask and decode: one warning line naming the variable; every value exported back", () => {
    for (const mode of [[], ["--cf", "mask"], ["--cf", "decode"]]) {
      const table = join(dir, `masked${mode.join("")}.lance`);
      const run = cli(["import", MASKED_VALS, table, ...mode]);
      expect(run.code, mode.join(" ")).toBe(0);
      expect(run.stderr.trim().split("\n")).toEqual([
        `lance-nd: warning: ${MASKED_VALS}: variable "var3_fillvalAndMissingValue" imported as stored (as --cf raw): its missing_value differs from its _FillValue, and a masked cell would export as one of them`,
      ]);
      const out = join(dir, `masked${mode.join("")}.nc`);
      expect(cli(["export", table, out]).stderr).toBe("");
      expect(ncdumpBody(out)).toBe(ncdumpBody(MASKED_VALS));
    }
  });

  it("with --cf raw, export writes the file again: ncdump prints the same header and values", () => {
    const table = join(dir, "raw.lance");
    expect(cli(["import", MASKED_VALS, table, "--cf", "raw"]).code).toBe(0);
    const out = join(dir, "again.nc");
    const run = cli(["export", table, out]);
    expect(run.stderr).toBe("");
    expect(ncdumpBody(out)).toBe(ncdumpBody(MASKED_VALS));
  });

  it("a Zarr store whose fill_value 1 and missing_value 2 both occur keeps its values the same way", () => {
    const store = join(dir, "markers.zarr");
    mkdirSync(join(store, "v"), { recursive: true });
    writeFileSync(join(store, ".zgroup"), JSON.stringify({ zarr_format: 2 }));
    writeFileSync(
      join(store, "v", ".zarray"),
      JSON.stringify({
        zarr_format: 2,
        shape: [3],
        chunks: [3],
        dtype: "<i4",
        compressor: null,
        filters: null,
        fill_value: 1,
        order: "C",
      }),
    );
    writeFileSync(join(store, "v", ".zattrs"), JSON.stringify({ _ARRAY_DIMENSIONS: ["x"], missing_value: 2 }));
    writeFileSync(join(store, "v", "0"), new Uint8Array(new Int32Array([1, 2, 3]).buffer));
    const run = cli(["import", store, join(dir, "markers.lance")]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`variable "v" imported as stored (as --cf raw)`);
    const rows = JSON.parse(cli(["scan", join(dir, "markers.lance"), "--json"]).stdout) as {
      arrays: Record<string, { values: unknown[] }>;
    }[];
    expect(rows[0]!.arrays.v!.values).toEqual([1, 2, 3]);
  });
});
