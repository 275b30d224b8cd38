import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "../commands/harness.js";
import { netcdf4Masked, pythonSkipReason, xarrayDump, xarrayFixtures } from "./oracle.js";

const skip = pythonSkipReason();
const XARRAY_DATA = "/usr/lib/python3/dist-packages/xarray/tests/data";

function ok(args: string[]): string {
  const run = cli(args);
  expect(
    run.stderr.split("\n").filter((l) => l !== "" && !l.includes("warning:")),
    args.join(" "),
  ).toEqual([]);
  expect(run.code, args.join(" ")).toBe(0);
  return run.stdout;
}

interface JsonRow {
  globalAttrs: Record<string, unknown>;
  arrays: Record<string, { type: string; values: unknown[] }>;
}

describe.skipIf(skip !== undefined)(
  `--cf mask and decode, compared with netCDF4-python${skip ? ` (${skip})` : ""}`,
  () => {
    let dir: string;
    let packed: string;
    let ranged: string;
    beforeAll(() => {
      ensureBuilt();
      dir = tempDir();
      packed = join(xarrayFixtures(), "packed.nc");
      ranged = join(xarrayFixtures(), "ranged.nc");
    });

    const scan = (table: string, ...args: string[]): JsonRow[] =>
      JSON.parse(ok(["scan", table, "--json", ...args])) as JsonRow[];

    it("decode: values are netCDF4's mask-and-scale, times its num2date", () => {
      const table = join(dir, "decode.lance");
      ok(["import", packed, table, "--cf", "decode"]);
      const [row] = scan(table);
      const oracle = netcdf4Masked(packed);
      expect(row!.arrays.sst!.type).toBe("Float32");
      expect(row!.arrays.sst!.values).toEqual(oracle.sst!.values);
      expect(row!.arrays.time!.type).toBe("Timestamp<SECOND, UTC>");
      expect(row!.arrays.time!.values).toEqual(
        oracle.time!.epochMicroseconds!.map((us) => (us === null ? null : us / 1000)),
      );
    });

    it("mask: fills are nulls in the stored type, example_1's default fills (no _FillValue) too", () => {
      const table = join(dir, "mask.lance");
      ok(["import", packed, table]);
      const [row] = scan(table);
      const oracle = netcdf4Masked(packed);
      expect(row!.arrays.sst!.type).toBe("Int16");
      const nulls = (values: unknown[]): number[] => values.flatMap((v, i) => (v === null ? [i] : []));
      expect(nulls(row!.arrays.sst!.values)).toEqual(nulls(oracle.sst!.values));
      const example = join(XARRAY_DATA, "example_1.nc");
      if (!existsSync(example)) return;
      const other = join(dir, "example.lance");
      ok(["import", example, other]);
      expect(scan(other)[0]!.arrays.temp!.values).toEqual(netcdf4Masked(example).temp!.values);
    });

    it("a fill value is never a stats min or max under mask and decode; raw keeps it", () => {
      for (const [mode, matches] of [
        ["raw", 1],
        ["mask", 0],
        ["decode", 0],
      ] as const) {
        const table = join(dir, `stats-${mode}.lance`);
        ok(["import", packed, table, "--cf", mode, "--mode", "overwrite"]);
        const rows = scan(table, "--project", "lat", "--where", "`__stats__:sst`.min < -1000");
        expect({ mode, rows: rows.length }).toEqual({ mode, rows: matches });
      }
      const decoded = scan(
        join(dir, "stats-decode.lance"),
        "--project",
        "lat",
        "--where",
        "`__stats__:sst`.min >= 14.9 AND `__stats__:sst`.max <= 35",
      );
      expect(decoded).toHaveLength(1);
    });

    it("valid_range / valid_min / valid_max: values outside are nulls (as netCDF4 masks them), never a stats min or max", () => {
      const oracle = netcdf4Masked(ranged);
      for (const [mode, matches] of [
        ["raw", 1],
        ["mask", 0],
        ["decode", 0],
      ] as const) {
        const table = join(dir, `ranged-${mode}.lance`);
        ok(["import", ranged, table, "--cf", mode]);
        const [row] = scan(table);
        if (mode === "decode") expect(row!.arrays.chl!.values, mode).toEqual(oracle.chl!.values);
        if (mode === "mask") {
          const nulls = (values: unknown[]): number[] => values.flatMap((v, i) => (v === null ? [i] : []));
          expect(nulls(row!.arrays.chl!.values)).toEqual(nulls(oracle.chl!.values));
        }
        if (mode !== "raw") expect(row!.arrays.depth!.values, mode).toEqual(oracle.depth!.values);
        const where =
          mode === "decode"
            ? "`__stats__:chl`.min < 0 OR `__stats__:chl`.max > 10 OR `__stats__:depth`.min < 0 OR `__stats__:depth`.max > 5000"
            : "`__stats__:chl`.min < 0 OR `__stats__:chl`.max > 1000 OR `__stats__:depth`.min < 0 OR `__stats__:depth`.max > 5000";
        expect({ mode, rows: scan(table, "--project", "lat", "--where", where).length }).toEqual({
          mode,
          rows: matches,
        });
      }
    });

    it("export of a masked table writes the fill value for values outside the valid range, as netCDF4 writes a masked array", () => {
      for (const mode of ["mask", "decode"]) {
        const exported = join(dir, `ranged-${mode}.nc`);
        ok(["export", join(dir, `ranged-${mode}.lance`), exported]);
        const [source, back] = xarrayDump(ranged, exported);
        for (const name of ["chl", "depth"]) {
          const before = source!.variables[name]!;
          const after = back!.variables[name]!;
          const [min, max] = name === "chl" ? [0, 1000] : [0, 5000];
          const fill = name === "chl" ? -32767 : "NaN";
          const want = before.values.map((v) => (typeof v === "number" && (v < min || v > max) ? fill : v));
          expect(after.values, `${mode} ${name}`).toEqual(want);
          expect(after.attrs, `${mode} ${name}`).toEqual(before.attrs);
          expect(after.dtype, `${mode} ${name}`).toBe(before.dtype);
        }
      }
    });
  },
);
