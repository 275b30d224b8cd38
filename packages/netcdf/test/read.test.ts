import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { failure } from "@lance-nd/test-helpers";
import { isNetcdfError } from "../src/index.js";
import { loadH5wasm } from "../src/h5wasm.js";
import { STORAGE_ATTRS, detectFormat, openNetcdf, readNetcdf } from "../src/index.js";
import { ensureFixtures, fixture, fixtureSkipReason } from "./fixtures.js";

const skip = fixtureSkipReason();

async function readError(source: string | Uint8Array): Promise<unknown> {
  return failure(readNetcdf(source));
}

describe("detectFormat", () => {
  it("classic, 64-bit offset and HDF5 magic bytes select the reader", () => {
    expect(detectFormat(Uint8Array.of(0x43, 0x44, 0x46, 1), "a")).toBe("classic");
    expect(detectFormat(Uint8Array.of(0x43, 0x44, 0x46, 2), "a")).toBe("64bit-offset");
    expect(detectFormat(Uint8Array.of(0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a), "a")).toBe("netcdf4");
  });

  it("anything else is InvalidFile saying what the file is not", () => {
    const err = (() => {
      try {
        detectFormat(new TextEncoder().encode("hello"), "notes.txt");
      } catch (e) {
        return e;
      }
    })();
    expect(isNetcdfError(err, "InvalidFile")).toBe(true);
    expect((err as Error).message).toMatch(/notes\.txt: not a netCDF file.*starts with "hell"/);
  });

  it("CDF-5 is InvalidFile with a conversion hint", () => {
    expect(() => detectFormat(Uint8Array.of(0x43, 0x44, 0x46, 5), "big.nc")).toThrow(
      expect.objectContaining({ code: "InvalidFile", message: expect.stringMatching(/CDF-5.*nccopy/) }),
    );
  });
});

describe("readNetcdf errors", () => {
  it("a missing path is FileNotFound", async () => {
    expect(isNetcdfError(await readError("/nonexistent/x.nc"), "FileNotFound")).toBe(true);
  });

  it("a file that is not netCDF is InvalidFile", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lance-nd-cli-"));
    writeFileSync(join(dir, "x.csv"), "a,b\n1,2\n");
    const err = await readError(join(dir, "x.csv"));
    expect(isNetcdfError(err, "InvalidFile")).toBe(true);
  });
});

describe("plain HDF5 without dimension scales", () => {
  it("unnamed dims become phony_dim_N, one name per distinct size", async () => {
    const { h5 } = await loadH5wasm();
    const path = join(mkdtempSync(join(tmpdir(), "lance-nd-cli-")), "plain.h5");
    const file = new h5.File(path, "w");
    file.create_dataset({ name: "a", data: new Float32Array(6), shape: [2, 3] });
    file.create_dataset({ name: "b", data: new Int16Array(3), shape: [3] });
    file.close();
    const batch = await readNetcdf(path);
    expect(batch.get("a")?.dims).toEqual([
      { name: "phony_dim_0", size: 2 },
      { name: "phony_dim_1", size: 3 },
    ]);
    expect(batch.get("b")?.dims).toEqual([{ name: "phony_dim_1", size: 3 }]);
  });
});

describe.skipIf(skip !== undefined)(`netCDF fixtures${skip ? ` (${skip})` : ""}`, () => {
  beforeAll(ensureFixtures);

  describe.each(["ocean-classic.nc", "ocean-64bit.nc", "ocean-nc4.nc"] as const)("%s", (name) => {
    it("every variable is an array with its netCDF dims; the unlimited dim has its current size", async () => {
      const batch = await readNetcdf(fixture(name));
      expect(batch.get("sst")?.dims).toEqual([
        { name: "time", size: 3 },
        { name: "lat", size: 4 },
        { name: "lon", size: 5 },
      ]);
      expect(batch.get("mask")?.dimNames).toEqual(["lat", "lon"]);
      expect(batch.get("time")?.dimNames).toEqual(["time"]);
    });

    it("values are the raw stored ones: neither unpacked nor masked", async () => {
      const sst = (await readNetcdf(fixture(name))).get("sst")!;
      expect(String(sst.type)).toBe("Float32");
      const values = sst.toArray() as Float32Array;
      expect(values[0]).toBe(100);
      expect(values[19]).toBe(-999);
      expect(values[59]).toBe(-999);
      expect(values[58]).toBe(24);
    });

    it("_FillValue, scale_factor, add_offset stay attributes with the variable's types", async () => {
      const sst = (await readNetcdf(fixture(name))).get("sst")!;
      expect(String(sst.attrs.get("_FillValue")?.type)).toBe("Float32");
      expect(sst.attr("_FillValue")).toBe(-999);
      expect(sst.attr("scale_factor")).toBeCloseTo(0.01, 7);
      expect(String(sst.attrs.get("valid_range")?.type)).toBe("List<Float32>");
      expect(sst.attr("valid_range")).toEqual([-500, 1500]);
      expect(sst.attr("units")).toBe("degC");
      const mask = (await readNetcdf(fixture(name))).get("mask")!;
      expect(String(mask.attrs.get("_FillValue")?.type)).toBe("Int16");
      expect(mask.attr("_FillValue")).toBe(-1);
    });

    it("netCDF types map to Arrow types; bytes are signed", async () => {
      const batch = await readNetcdf(fixture(name));
      const types = Object.fromEntries(batch.arrays().map(([n, a]) => [n, String(a.type)]));
      expect(types).toMatchObject({
        time: "Float64",
        lat: "Float32",
        sst: "Float32",
        mask: "Int16",
        quality: "Int8",
        count: "Int32",
        station: "Utf8",
      });
      expect(Array.from(batch.get("quality")!.toArray())).toEqual([-1, 0, 127]);
      expect(Array.from(batch.get("count")!.toArray())).toEqual([7, -2147483647, 2147483647]);
    });

    it("a char array collapses its last dim into strings", async () => {
      const station = (await readNetcdf(fixture(name))).get("station")!;
      expect(station.dims).toEqual([{ name: "time", size: 3 }]);
      expect(station.toArray()).toEqual(["ALPHA", "BRAVO-12", "C"]);
    });

    it("global attributes keep their types", async () => {
      const batch = await readNetcdf(fixture(name));
      expect(batch.globalAttr("title")).toBe("Ocean fixture");
      expect(String(batch.globalAttrs.get("version")?.type)).toBe("Int32");
      expect(batch.globalAttr("history_ids")).toEqual([1, 2, 3]);
    });
  });

  it("netCDF-4: NC_STRING, int64, ubyte, ushort variables keep exact values", async () => {
    const batch = await readNetcdf(fixture("ocean-nc4.nc"));
    expect(batch.get("name")?.toArray()).toEqual(["south", "tropics S", "tropics N", "north"]);
    expect(String(batch.get("big")?.type)).toBe("Int64");
    expect(Array.from(batch.get("big")!.toArray())).toEqual([
      -9223372036854775807n,
      0n,
      1n,
      9007199254740993n,
      9223372036854775807n,
    ]);
    expect(String(batch.get("flags")?.type)).toBe("Uint8");
    expect(batch.get("flags")?.attr("_FillValue")).toBe(255);
    expect(String(batch.get("depth")?.type)).toBe("Uint16");
    expect(batch.globalAttr("offset64")).toBe(9007199254740993n);
  });

  it("netCDF-4: dimension-only scales are not arrays, but name the dims", async () => {
    const batch = await readNetcdf(fixture("ocean-nc4.nc"));
    expect(batch.has("strlen")).toBe(false);
    expect(batch.has("nv")).toBe(false);
    expect(batch.get("level")?.dims).toEqual([{ name: "nv", size: 2 }]);
  });

  it("netCDF-4: groups are ignored with a warning naming them", async () => {
    const file = await openNetcdf(fixture("ocean-nc4.nc"));
    expect(file.variables.map((v) => v.name)).not.toContain("hidden");
    expect(file.warnings).toHaveLength(1);
    expect(file.warnings[0]).toMatch(/groups are not read with the root group.*"extra"/);
    await file.close();
  });

  it("classic and netCDF-4 files of one CDL give the same arrays", async () => {
    const classic = await readNetcdf(fixture("ocean-classic.nc"));
    const nc4 = await readNetcdf(fixture("ocean-nc4.nc"));
    for (const [name, a] of classic.arrays()) {
      const b = nc4.get(name)!;
      expect(b.dims, name).toEqual(a.dims);
      expect(String(b.type), name).toBe(String(a.type));
      expect(Array.from(b.toArray()), name).toEqual(Array.from(a.toArray()));
      const own = (x: typeof a): string[] => [...x.attrs.keys()].filter((k) => !STORAGE_ATTRS.has(k));
      expect(own(b), name).toEqual(own(a));
    }
  });

  it("bytes read like the file they come from, and stay unchanged", async () => {
    for (const name of ["ocean-classic.nc", "ocean-nc4.nc"] as const) {
      const bytes = readFileSync(fixture(name));
      const copy = Uint8Array.from(bytes);
      const fromBytes = await readNetcdf(bytes);
      expect(bytes.equals(copy)).toBe(true);
      const fromPath = await readNetcdf(fixture(name));
      expect(fromBytes.names()).toEqual(fromPath.names());
      expect(fromBytes.get("sst")?.toArray()).toEqual(fromPath.get("sst")?.toArray());
    }
  });

  it("options.variables reads only those; an unknown name is VariableNotFound", async () => {
    const batch = await readNetcdf(fixture("ocean-nc4.nc"), { variables: ["sst", "lat"] });
    expect(batch.names()).toEqual(["lat", "sst"]);
    const err = await readNetcdf(fixture("ocean-nc4.nc"), { variables: ["nope"] }).catch((e: unknown) => e);
    expect(isNetcdfError(err, "VariableNotFound")).toBe(true);
  });

  it("an index drops its dim, of char, string and numeric variables, in every format; the rest of the dims are the slab read", async () => {
    for (const name of ["ocean-classic.nc", "ocean-nc4.nc"] as const) {
      const file = await openNetcdf(fixture(name));
      try {
        for (const variable of file.variables) {
          const whole = await file.read(variable.name);
          if (whole.rank === 0) continue;
          const [first, ...rest] = variable.dims;
          const last = await file.read(variable.name, { [first!.name]: -1 });
          expect(last.dims, `${name} ${variable.name}`).toEqual(rest);
          const cells = rest.reduce((n, d) => n * d.size, 1);
          const tail = Array.from(whole.values as Iterable<unknown>).slice(-cells);
          expect(Array.from(last.values as Iterable<unknown>), `${name} ${variable.name}`).toEqual(tail);
        }
        await expect(file.read("sst", { time: [0, 1], depth: 0 })).rejects.toThrow(/"depth"/);
      } finally {
        await file.close();
      }
    }
  });

  it("a second file with other variables on the same grid reads on its own", async () => {
    const batch = await readNetcdf(fixture("waves-nc4.nc"));
    expect(batch.names()).toEqual(["time", "lat", "lon", "swh", "peak_period"]);
    expect(batch.get("swh")?.dims).toEqual([
      { name: "time", size: 2 },
      { name: "lat", size: 4 },
      { name: "lon", size: 5 },
    ]);
    expect(batch.globalAttr("title")).toBe("Waves fixture");
  });

  it("a truncated netCDF-4 file is InvalidFile naming the file and the cause", async () => {
    const err = await readError(fixture("corrupt.nc"));
    expect(isNetcdfError(err, "InvalidFile")).toBe(true);
    expect((err as Error).message).toMatch(/corrupt\.nc: .*truncated file/);
  });

  it("a truncated netCDF-3 file is InvalidFile", async () => {
    const bytes = readFileSync(fixture("ocean-classic.nc"));
    const err = await readError(bytes.subarray(0, bytes.length - 100));
    expect(isNetcdfError(err, "InvalidFile")).toBe(true);
    expect((err as Error).message).toMatch(/truncated/);
  });
});
