import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { beforeAll, describe, expect, it } from "vitest";
import { FORMAT_ATTR, isNetcdfError, readNetcdf, writeNetcdf } from "../src/index.js";
import { failure, ncdumpBody as ncdump, ncdumpKind as kind } from "@lance-nd/test-helpers";
import { ensureFixtures, fixture, fixtureSkipReason } from "./fixtures.js";

const skip = fixtureSkipReason();
const dir = mkdtempSync(join(tmpdir(), "lance-nd-classic-write-"));

/** netCDF-3 files no one here wrote (xarray's and scipy's test data), and the ncgen fixtures. */
function sources(): string[] {
  const real = [
    "/usr/lib/python3/dist-packages/xarray/tests/data/example_1.nc",
    "/usr/lib/python3/dist-packages/xarray/tests/data/bears.nc",
    "/usr/lib/python3/dist-packages/scipy/io/tests/data/example_1.nc",
    "/usr/lib/python3/dist-packages/scipy/io/tests/data/example_2.nc",
    "/usr/lib/python3/dist-packages/scipy/io/tests/data/example_3_maskedvals.nc",
  ];
  const missing = real.filter((f) => !existsSync(f));
  if (missing.length > 0 && process.env.CI === "true") throw new Error(`test files missing: ${missing.join(", ")}`);
  return [...real.filter((f) => existsSync(f)), fixture("ocean-classic.nc"), fixture("ocean-64bit.nc")];
}

describe.skipIf(skip !== undefined)(`netCDF-3 written back as netCDF-3${skip ? ` (${skip})` : ""}`, () => {
  beforeAll(() => ensureFixtures());

  it("classic and 64-bit offset files come back in their format: ncdump -k, header and every value as the source", async () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(2);
    for (const [i, source] of files.entries()) {
      const batch = await readNetcdf(source);
      expect(batch.globalAttrs.get(FORMAT_ATTR)?.toJS(), source).toMatch(/^(classic|64bit-offset)$/);
      const out = join(dir, `${i}-${basename(source)}`);
      await writeNetcdf(out, batch);
      expect(kind(out), source).toBe(kind(source));
      expect(ncdump(out), source).toBe(ncdump(source));
    }
  });

  it("format: netcdf4 writes a classic source as netCDF-4; format: classic a netCDF-4 one as classic", async () => {
    const classic = await readNetcdf(fixture("ocean-classic.nc"));
    const out = join(dir, "as-netcdf4.nc");
    await writeNetcdf(out, classic, { format: "netcdf4" });
    expect(kind(out)).toBe("netCDF-4");
    const back = join(dir, "as-classic.nc");
    await writeNetcdf(back, await readNetcdf(out), { format: "classic" });
    expect(kind(back)).toBe("classic");
    expect(ncdump(back)).toBe(ncdump(fixture("ocean-classic.nc")));
  });

  it("what classic cannot hold is a typed error naming it, and no compression or chunks", async () => {
    const unsigned = new NdRecordBatch({ n: NdArray.from(new Uint16Array([1, 2]), { dims: { x: 2 } }) });
    const err = await failure(writeNetcdf(join(dir, "u16.nc"), unsigned, { format: "classic" }));
    expect(isNetcdfError(err, "UnsupportedType")).toBe(true);
    expect((err as Error).message).toMatch(
      /"n" holds Uint16, which a classic netCDF file cannot \(write format netcdf4\)/,
    );
    const source = await readNetcdf(fixture("ocean-classic.nc"));
    const zipped = await failure(writeNetcdf(join(dir, "z.nc"), source, { compression: { codec: "deflate" } }));
    expect(isNetcdfError(zipped, "InvalidArgument")).toBe(true);
    expect((zipped as Error).message).toMatch(/a classic netCDF file has no compression or chunks/);
    const twoRecords = await failure(
      writeNetcdf(join(dir, "two.nc"), source, { format: "64bit-offset", unlimited: ["time", "lat"] }),
    );
    expect((twoRecords as Error).message).toMatch(/a 64bit-offset file has one unlimited dim, not time, lat/);
  });

  it("a zero-length dim is a classic file's record dim when it comes first in every variable, else refused; netCDF-4 holds it", async () => {
    const empty = new NdRecordBatch({ v: NdArray.from(new Float32Array(0), { dims: { x: 3, t: 0 } }) });
    const classic = join(dir, "empty-fixed.nc");
    const err = await failure(writeNetcdf(classic, empty, { format: "classic" }));
    expect(isNetcdfError(err, "InvalidArgument")).toBe(true);
    expect((err as Error).message).toMatch(
      /dim "t" has length 0, which a classic file can hold only as its unlimited dim, first in every variable \(write netCDF-4\)/,
    );
    expect(existsSync(classic)).toBe(false);
    const first = new NdRecordBatch({ v: NdArray.from(new Float32Array(0), { dims: { t: 0, x: 3 } }) });
    const record = join(dir, "empty-record.nc");
    await writeNetcdf(record, first, { format: "classic" });
    expect(ncdump(record)).toMatch(/t = UNLIMITED ; \/\/ \(0 currently\)[\s\S]*float v\(t, x\) ;/);
    const nc4 = join(dir, "empty-fixed-nc4.nc");
    await writeNetcdf(nc4, empty, { format: "netcdf4" });
    expect(ncdump(nc4)).toMatch(/t = UNLIMITED ; \/\/ \(0 currently\)[\s\S]*float v\(x, t\) ;/);
  });
});
