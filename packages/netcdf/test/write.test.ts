import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Binary, DurationSecond, Int16, TimestampMillisecond, makeData, Vector } from "apache-arrow";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { describe, expect, it } from "vitest";
import { isNetcdfError } from "../src/index.js";
import { DIM_ORDER_ATTR, FORMAT_ATTR, VARIABLE_ORDER_ATTR, openNetcdf, readNetcdf, writeNetcdf } from "../src/index.js";
import { hasTool, runTool, skipReason } from "@lance-nd/test-helpers";

const dir = mkdtempSync(join(tmpdir(), "lance-nd-cli-write-"));
let n = 0;
const outPath = (): string => join(dir, `out-${n++}.nc`);

function sample(): NdRecordBatch {
  const sst = NdArray.from(
    Float32Array.from({ length: 2 * 3 * 4 }, (_, i) => i / 4),
    {
      dims: { time: 2, lat: 3, lon: 4 },
      attrs: {
        units: "degC",
        _FillValue: attr.float32(-999),
        valid_range: attr.float32([-5, 40]),
        scale: attr.int16(3),
      },
    },
  );
  return new NdRecordBatch(
    {
      sst,
      lat: NdArray.from(Float32Array.of(-45, 0, 45), { dims: { lat: 3 }, attrs: { units: "degrees_north" } }),
      time: NdArray.from(Float64Array.of(0, 31), { dims: { time: 2 }, attrs: { units: "days since 2000-01-01" } }),
      station: NdArray.from(["alpha", "béta"], { dims: { time: 2 } }),
      count: NdArray.from(BigInt64Array.of(-1n, 9007199254740993n), { dims: { time: 2 } }),
    },
    { title: "sample", version: attr.int32(2), ids: attr.utf8(["a", "b"]), empty: "" },
  );
}

const ncdumpSkip = skipReason(
  hasTool("ncdump") ? undefined : "ncdump tests skipped: ncdump not found (apt-get install netcdf-bin)",
);

describe.skipIf(ncdumpSkip !== undefined)(`ncdump reads the files${ncdumpSkip ? ` (${ncdumpSkip})` : ""}`, () => {
  it("ncdump -h lists the dims, the variables with their dims and the attributes", async () => {
    const path = outPath();
    await writeNetcdf(path, sample());
    const out = runTool("ncdump", ["-h", path]);
    expect(out).toMatch(/dimensions:\s+time = 2 ;\s+lat = 3 ;\s+lon = 4 ;/);
    expect(out).toContain("float sst(time, lat, lon) ;");
    expect(out).toContain('sst:units = "degC" ;');
    expect(out).toContain("sst:_FillValue = -999.f ;");
    expect(out).toContain("sst:valid_range = -5.f, 40.f ;");
    expect(out).toContain("sst:scale = 3s ;");
    expect(out).toContain("float lat(lat) ;");
    expect(out).toContain("string station(time) ;");
    expect(out).toContain("int64 count(time) ;");
    expect(out).toContain(':title = "sample" ;');
    expect(out).toContain(":version = 2 ;");
    expect(out).toContain('string :ids = "a", "b" ;');
  });

  it("ncdump prints the values; a dim without coordinate variable is a plain dimension", async () => {
    const path = outPath();
    const batch = new NdRecordBatch({ v: NdArray.from(Int16Array.of(1, 2, 3, 4, 5, 6), { dims: { y: 2, x: 3 } }) });
    await writeNetcdf(path, batch);
    const out = runTool("ncdump", [path]);
    expect(out).toMatch(/dimensions:\s+y = 2 ;\s+x = 3 ;\s+variables:\s+short v\(y, x\) ;/);
    expect(out).toMatch(/v =\s+1, 2, 3,\s+4, 5, 6 ;/);
  });
});

describe("writeNetcdf4 round trip through readNetcdf", () => {
  it("values, dims, attributes and their types come back", async () => {
    const path = outPath();
    const batch = sample();
    await writeNetcdf(path, batch);
    const back = await readNetcdf(path);
    expect(back.names()).toEqual(batch.names());
    for (const [name, a] of batch.arrays()) {
      const b = back.get(name)!;
      expect(b.dims, name).toEqual(a.dims);
      expect(String(b.type), name).toBe(String(a.type));
      expect(Array.from(b.toArray()), name).toEqual(Array.from(a.toArray()));
      expect(
        [...b.attrs].map(([k, v]) => [k, String(v.type), v.toJS()]),
        name,
      ).toEqual([...a.attrs].map(([k, v]) => [k, String(v.type), v.toJS()]));
    }
    const {
      [DIM_ORDER_ATTR]: order,
      [FORMAT_ATTR]: format,
      [VARIABLE_ORDER_ATTR]: variables,
      ...globals
    } = Object.fromEntries([...back.globalAttrs].map(([k, v]) => [k, [String(v.type), v.toJS()]]));
    expect(globals).toEqual(
      Object.fromEntries([...batch.globalAttrs].map(([k, v]) => [k, [String(v.type), v.toJS()]])),
    );
    expect(order).toEqual(["List<Utf8>", ["time", "lat", "lon"]]);
    expect(format).toEqual(["Utf8", "netcdf4"]);
    expect(variables).toEqual(["List<Utf8>", batch.names()]);
  });

  it("the dims are written in the order of the global _DimOrder (the source's), not the grid's", async () => {
    const path = outPath();
    const batch = sample();
    await writeNetcdf(path, batch.withGlobalAttrs(new Map([[DIM_ORDER_ATTR, attr.utf8(["lon", "time", "lat"])]])));
    expect((await openNetcdf(path)).dims.map((d) => d.name)).toEqual(["lon", "time", "lat"]);
    if (ncdumpSkip === undefined)
      expect(runTool("ncdump", ["-h", path])).toMatch(/dimensions:\s+lon = \d+ ;\s+time = /);
  });

  it("nulls become the fill value: NaN for floats, netCDF's default for integers, with _FillValue", async () => {
    const path = outPath();
    const batch = new NdRecordBatch({
      f: NdArray.from([1.5, null, 3], { dims: { x: 3 } }),
      i: NdArray.from([1, null, 3], { dims: { x: 3 }, type: new Int16() }),
      j: NdArray.from([null, 2, 3], { dims: { x: 3 }, type: new Int16(), attrs: { _FillValue: attr.int16(-1) } }),
    });
    await writeNetcdf(path, batch);
    const back = await readNetcdf(path);
    expect(Array.from(back.get("f")!.toArray())).toEqual([1.5, Number.NaN, 3]);
    expect(back.get("f")!.attr("_FillValue")).toBeNaN();
    expect(Array.from(back.get("i")!.toArray())).toEqual([1, -32767, 3]);
    expect(back.get("i")!.attr("_FillValue")).toBe(-32767);
    expect(Array.from(back.get("j")!.toArray())).toEqual([-1, 2, 3]);
  });

  it("timestamps are int64 with CF units", async () => {
    const path = outPath();
    const t = NdArray.from(BigInt64Array.of(0n, 86_400_000n), { dims: { time: 2 }, type: new TimestampMillisecond() });
    await writeNetcdf(path, new NdRecordBatch({ t }));
    const back = (await readNetcdf(path)).get("t")!;
    expect(String(back.type)).toBe("Int64");
    expect(back.attr("units")).toBe("milliseconds since 1970-01-01 00:00:00");
    expect(Array.from(back.toArray())).toEqual([0n, 86_400_000n]);
  });

  it("a type netCDF cannot hold is UnsupportedType naming the array", async () => {
    const span = new Vector([makeData({ type: new DurationSecond(), length: 1, data: BigInt64Array.of(7n) })]);
    const batch = new NdRecordBatch({ span: NdArray.from(span, { dims: { x: 1 } }) });
    const err = await writeNetcdf(outPath(), batch).catch((e: unknown) => e);
    expect(isNetcdfError(err, "UnsupportedType")).toBe(true);
    expect((err as Error).message).toContain('"span"');
  });

  it("a dim without a coordinate variable takes almost no space: its scale's zeros are deflated", async () => {
    const cells = 1_000_000;
    const flag = NdArray.from(new Uint8Array(cells).fill(1), {
      dims: { point: cells },
      attrs: { _ChunkSizes: attr.int32([cells]), _DeflateLevel: attr.int32(1) },
    });
    const path = outPath();
    await writeNetcdf(path, new NdRecordBatch({ flag }));
    // 1 MB of flags deflate to a few KB; the dim's scale as contiguous float zeros would add 4 MB.
    expect(statSync(path).size).toBeLessThan(100_000);
    const file = await openNetcdf(path);
    expect(file.dims.map((d) => `${d.name}=${d.size}`)).toEqual(["point=1000000"]);
    await file.close();
  });

  it("byte strings (Binary) are a char array as xarray writes |S<n>: every byte kept, the width of _CharDimSize or the longest", async () => {
    const values = [Uint8Array.of(0x61, 0xff, 0), Uint8Array.of(), Uint8Array.of(0x7a)];
    const bin = new Vector([
      makeData({
        type: new Binary(),
        length: 3,
        valueOffsets: Int32Array.of(0, 3, 3, 4),
        data: Uint8Array.of(...values.flatMap((v) => [...v])),
      }),
    ]);
    const batch = new NdRecordBatch({
      wide: NdArray.from(bin, { dims: { x: 3 }, attrs: { _CharDimSize: attr.int32(5) } }),
      tight: NdArray.from(bin, { dims: { x: 3 } }),
    });
    const path = outPath();
    await writeNetcdf(path, batch);
    const file = await openNetcdf(path);
    expect(file.dims.map((d) => `${d.name}=${d.size}`)).toEqual(["x=3", "string5=5", "string3=3"]);
    expect(file.variable("wide").attrs.get("_CharDim")?.toJS()).toBe("string5");
    await file.close();
  });
  it("a path that cannot be created is WriteFailed", async () => {
    const err = await writeNetcdf(join(dir, "no-such-dir", "x.nc"), sample()).catch((e: unknown) => e);
    expect(isNetcdfError(err, "WriteFailed")).toBe(true);
  });
});
