import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openNetcdf, readNetcdf, writeNetcdf } from "../src/index.js";
import { CDL_ROUND_TRIP_CASES, ncdumpBody, ncdumpKind, ncgenCdl } from "@lance-nd/test-helpers";
import { fixtureSkipReason } from "./fixtures.js";
import { xarraySkipReason, xarrayVariables } from "./xarray-oracle.js";

const skip = fixtureSkipReason();
const noXarray = xarraySkipReason();

describe.skipIf(skip !== undefined)(`CDL files read and written back${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  const pairs: [source: string, written: string][] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "lance-nd-netcdf-cdl-"));
  });

  for (const [name, kinds] of CDL_ROUND_TRIP_CASES) {
    for (const kind of kinds) {
      it(`${name} (${kind}): ncdump of the written file, header and data, is the source's, in its format`, async () => {
        const source = ncgenCdl(name, kind, dir);
        const written = join(dir, `${name}-${kind}-written.nc`);
        await writeNetcdf(written, await readNetcdf(source));
        expect(ncdumpKind(written)).toBe(ncdumpKind(source));
        expect(ncdumpBody(written)).toBe(ncdumpBody(source));
        pairs.push([source, written]);
      });
    }
  }

  it.skipIf(noXarray !== undefined)("xarray sees every written file as its source", () => {
    expect(pairs.length).toBeGreaterThan(10);
    const dumps = xarrayVariables(...pairs.flat());
    for (const [i, [source]] of pairs.entries()) expect(dumps[2 * i + 1], source).toEqual(dumps[2 * i]);
  });

  it("a variable shorter than its unlimited dim reads its fill value past its own length, as netCDF-C does", async () => {
    const file = await openNetcdf(ncgenCdl("ragged-unlimited", "nc4", dir));
    try {
      expect(file.dims.find((d) => d.name === "t")?.size).toBe(2);
      expect(Array.from((await file.read("w")).toArray() as Int32Array)).toEqual([5, -1]);
      expect(Array.from((await file.read("v", { t: [1, 2] })).toArray() as Float32Array)).toEqual([43]);
      expect(Array.from((await file.read("m")).toArray() as Float64Array)).toEqual([
        1, 2, 9.969209968386869e36, 9.969209968386869e36,
      ]);
    } finally {
      await file.close();
    }
  });

  it("char values that are not UTF-8 read as byte strings (Binary, |S<n>) and are written back byte for byte", async () => {
    for (const name of ["latin1-values", "byte-chardata"]) {
      for (const kind of ["nc3", "nc4"] as const) {
        const source = ncgenCdl(name, kind, dir);
        const batch = await readNetcdf(source);
        const bytes = name === "latin1-values" ? ["s"] : ["c", "charv", "cdata"];
        for (const v of bytes) expect(String(batch.get(v)!.type), `${name} ${v}`).toBe("Binary");
        if (name === "byte-chardata") expect(String(batch.get("text")!.type)).toBe("Utf8");
        const written = join(dir, `${name}-${kind}-bytes.nc`);
        await writeNetcdf(written, batch);
        expect(ncdumpBody(written), `${name} ${kind}`).toBe(ncdumpBody(source));
      }
    }
  });

  it("a char attribute that is not UTF-8 reads as its bytes in Latin-1, named in _ByteAttrs, and is written back byte for byte", async () => {
    for (const kind of ["nc3", "nc4"] as const) {
      const source = ncgenCdl("latin1-attribute", kind, dir);
      const batch = await readNetcdf(source);
      expect(batch.get("temp")!.attr("units"), kind).toBe("\u00b0C");
      expect(batch.get("temp")!.attr("_ByteAttrs"), kind).toEqual(["units"]);
      const written = join(dir, `latin1-attribute-${kind}-written.nc`);
      await writeNetcdf(written, batch);
      // ncdump prints the bytes as they are: compared as bytes (text would turn them into U+FFFD alike).
      const dumped = (path: string) => {
        const out = execFileSync("ncdump", [path]);
        return out.subarray(out.indexOf(10));
      };
      expect(dumped(written).equals(dumped(source)), kind).toBe(true);
      expect(dumped(written).includes(Buffer.from([0xb0, 0x43])), kind).toBe(true);
    }
  });

  it("NIL values of an NC_STRING variable read as nulls, apart from empty strings, and are written back as NIL", async () => {
    const source = ncgenCdl("nil-strings", "nc4", dir);
    const batch = await readNetcdf(source);
    expect(Array.from(batch.get("s")!.values)).toEqual(["a", null, "", "d"]);
    expect(Array.from(batch.get("grid")!.values)).toEqual([null, "x", "", null, "y", "", null, "z"]);
    expect((await readNetcdf(source, { variables: ["grid"] })).get("grid")!.values.nullCount).toBe(3);
    const file = await openNetcdf(source);
    try {
      expect(Array.from((await file.read("grid", { m: 1, n: [1, 3] })).values)).toEqual(["", null]);
    } finally {
      await file.close();
    }
    const written = join(dir, "nil-strings-written.nc");
    await writeNetcdf(written, batch);
    expect(ncdumpBody(written)).toBe(ncdumpBody(source));
    expect(ncdumpBody(written)).toContain(' s = "a", NIL, _, "d" ;');
  });

  it("enhanced types are left out with warnings that name the netCDF type", async () => {
    const file = await openNetcdf(ncgenCdl("enhanced-types", "nc4", dir));
    try {
      expect(file.variables.map((v) => v.name)).toEqual(["ok"]);
      const warnings = file.warnings.map((w) => w.slice(w.indexOf(": ") + 2));
      expect(warnings).toEqual([
        'user-defined type "pair" is not kept (netCDF-4 enhanced types are not supported)',
        'user-defined type "ragged" is not kept (netCDF-4 enhanced types are not supported)',
        'user-defined type "flag" is not kept (netCDF-4 enhanced types are not supported)',
        'user-defined type "blob" is not kept (netCDF-4 enhanced types are not supported)',
        'variable "c" has the netCDF compound type, which is not supported; skipped',
        'variable "r" has the netCDF vlen type, which is not supported; skipped',
        'variable "e" has the netCDF enum type, which is not supported; skipped',
        'variable "o" has the netCDF opaque type, which is not supported; skipped',
      ]);
    } finally {
      await file.close();
    }
  });
});
