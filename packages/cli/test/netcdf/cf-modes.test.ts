import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cliSucceeds } from "../commands/checked-runs.js";
import { ensureBuilt, tempDir } from "../commands/harness.js";
import { netcdf4Masked, pythonSkipReason, xarrayDump, xarrayFixtures } from "./oracle.js";
import type { MaskedDump } from "./oracle.js";

const skip = pythonSkipReason();
const XARRAY_DATA = "/usr/lib/python3/dist-packages/xarray/tests/data";
const MODES = ["raw", "mask", "decode"] as const;

interface JsonRow {
  globalAttrs: Record<string, unknown>;
  arrays: Record<string, { type: string; values: unknown[] }>;
}

const nulls = (values: unknown[]): number[] => values.flatMap((v, i) => (v === null ? [i] : []));

describe.skipIf(skip !== undefined)(
  `--cf mask and decode, compared with netCDF4-python${skip ? ` (${skip})` : ""}`,
  () => {
    let dir: string;
    let packed: string;
    let ranged: string;
    let example: string | undefined;
    /** netCDF4's mask-and-scale of packed, ranged and example_1 (one Python start). */
    let oracle: { packed: MaskedDump; ranged: MaskedDump; example: MaskedDump | undefined };
    /** The table of a fixture imported with a `--cf` mode: each is imported once, in beforeAll, and shared. */
    const table = (name: string, mode: string): string => join(dir, `${name}-${mode}.lance`);

    beforeAll(() => {
      ensureBuilt();
      dir = tempDir();
      packed = join(xarrayFixtures(), "packed.nc");
      ranged = join(xarrayFixtures(), "ranged.nc");
      const exampleFile = join(XARRAY_DATA, "example_1.nc");
      example = existsSync(exampleFile) ? exampleFile : undefined;
      for (const mode of MODES) {
        cliSucceeds(["import", packed, table("packed", mode), "--cf", mode]);
        cliSucceeds(["import", ranged, table("ranged", mode), "--cf", mode]);
      }
      cliSucceeds(["import", ranged, table("ranged", "mask-range"), "--cf", "mask-range"]);
      if (example !== undefined) cliSucceeds(["import", example, table("example", "mask")]);
      const [p, r, e] = netcdf4Masked(packed, ranged, ...(example === undefined ? [] : [example]));
      oracle = { packed: p!, ranged: r!, example: e };
    });

    const scan = (path: string, ...args: string[]): JsonRow[] =>
      JSON.parse(cliSucceeds(["scan", path, "--json", ...args])) as JsonRow[];

    it("decode: values are netCDF4's mask-and-scale, times its num2date", () => {
      const [row] = scan(table("packed", "decode"));
      expect(row!.arrays.sst!.type).toBe("Float32");
      expect(row!.arrays.sst!.values).toEqual(oracle.packed.sst!.values);
      expect(row!.arrays.time!.type).toBe("Timestamp<SECOND, UTC>");
      // Printed as ISO 8601 dates (CLI README, "Times"); --time-numbers gives epoch milliseconds.
      const instants = oracle.packed.time!.epochMicroseconds!;
      expect(row!.arrays.time!.values).toEqual(
        instants.map((us) => (us === null ? null : new Date(us / 1000).toISOString().replace(".000Z", "Z"))),
      );
      const [numbers] = scan(table("packed", "decode"), "--time-numbers");
      expect(numbers!.arrays.time!.values).toEqual(instants.map((us) => (us === null ? null : us / 1000)));
    });

    it("mask: fills are nulls in the stored type; example_1's default fills (no _FillValue) stay values, as xarray reads them", () => {
      const [row] = scan(table("packed", "mask"));
      expect(row!.arrays.sst!.type).toBe("Int16");
      expect(nulls(row!.arrays.sst!.values)).toEqual(nulls(oracle.packed.sst!.values));
      if (example === undefined) return;
      const [asXarray] = xarrayDump(example);
      expect(scan(table("example", "mask"))[0]!.arrays.temp!.values).toEqual(asXarray!.variables.temp!.values);
    });

    it("a fill value is never a stats min or max under mask and decode; raw keeps it", () => {
      for (const [mode, matches] of [
        ["raw", 1],
        ["mask", 0],
        ["decode", 0],
      ] as const) {
        const rows = scan(table("packed", mode), "--project", "lat", "--where", "`__stats__:sst`.min < -1000");
        expect({ mode, rows: rows.length }).toEqual({ mode, rows: matches });
      }
      const decoded = scan(
        table("packed", "decode"),
        "--project",
        "lat",
        "--where",
        "`__stats__:sst`.min >= 14.9 AND `__stats__:sst`.max <= 35",
      );
      expect(decoded).toHaveLength(1);
    });

    it("valid_range / valid_min / valid_max: --cf mask-range makes values outside nulls (as netCDF4 masks them), never a stats min or max; mask and decode keep them", () => {
      for (const [mode, matches] of [
        ["raw", 1],
        ["mask", 1],
        ["mask-range", 0],
        ["decode", 1],
      ] as const) {
        if (mode === "mask-range") {
          const [row] = scan(table("ranged", mode));
          expect(nulls(row!.arrays.chl!.values)).toEqual(nulls(oracle.ranged.chl!.values));
          expect(row!.arrays.depth!.values, mode).toEqual(oracle.ranged.depth!.values);
        }
        const chlMax = mode === "decode" ? 10 : 1000;
        const where = `\`__stats__:chl\`.min < 0 OR \`__stats__:chl\`.max > ${chlMax} OR \`__stats__:depth\`.min < 0 OR \`__stats__:depth\`.max > 5000`;
        expect({ mode, rows: scan(table("ranged", mode), "--project", "lat", "--where", where).length }).toEqual({
          mode,
          rows: matches,
        });
      }
    });

    it("export of a mask-range table writes the fill value for values outside the valid range, as netCDF4 writes a masked array; mask and decode give every value back", () => {
      const exported = ["mask-range", "mask", "decode"].map((mode) => {
        const out = join(dir, `ranged-${mode}.nc`);
        cliSucceeds(["export", table("ranged", mode), out]);
        return out;
      });
      const [source, ...backs] = xarrayDump(ranged, ...exported);
      for (const [i, back] of backs.entries()) {
        for (const name of ["chl", "depth"]) {
          const before = source!.variables[name]!;
          const after = back.variables[name]!;
          const [min, max] = name === "chl" ? [0, 1000] : [0, 5000];
          const fill = name === "chl" ? -32767 : "NaN";
          const outside = (v: unknown) => typeof v === "number" && (v < min || v > max);
          const want = i === 0 ? before.values.map((v) => (outside(v) ? fill : v)) : before.values;
          const where = `${exported[i]} ${name}`;
          expect(after.values, where).toEqual(want);
          expect(after.attrs, where).toEqual(before.attrs);
          expect(after.dtype, where).toBe(before.dtype);
        }
      }
    });
  },
);
