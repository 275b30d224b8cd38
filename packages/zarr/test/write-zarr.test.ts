/**
 * writeZarr: v2 stores that xarray's open_zarr opens as the same dataset as
 * the original (fixtures/xarray_same.py); v3 stores whose zarr.json and
 * chunk bytes a plain-Python reader of the v3 spec decodes
 * (fixtures/v3_spec_check.py); bad input refused with the output untouched.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { NdArray, NdRecordBatch, attr, slice } from "@lance-nd/nd-arrow";
import { Binary, Bool, Float16, Float64, Int16, TimestampSecond, Utf8, Vector, makeData } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { isZarrError, openZarr, writeZarr } from "../src/index.js";
import { spelledValues } from "./spelled.js";
import { fixtureScript, fixtureStores, python, skipOracle } from "./python-oracle.js";

const out = fixtureStores("xarray_v2_stores.py", "lance-nd-zarr-write-");

/** A small dataset with every type v3 writes: numbers, a packed int16 with _FillValue, strings, booleans. */
function sample(): NdRecordBatch {
  const time = NdArray.from(new Float64Array([0, 1, 2, 3, 4]), {
    dims: { time: 5 },
    attrs: { units: "days since 2000-01-01" },
  });
  const temp = NdArray.from([1, 2, null, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], {
    dims: { time: 5, site: 3 },
    type: new Int16(),
    attrs: { _FillValue: attr.int16(-99), scale_factor: 0.5, long_name: "temperature" },
  });
  const site = NdArray.from(["north", "süd", ""], { dims: { site: 3 }, type: new Utf8() });
  const wet = NdArray.from([true, false, true], { dims: { site: 3 }, type: new Bool() });
  return new NdRecordBatch({ temp, time, site, wet }, { title: "sample", version: 2n });
}

describe.skipIf(skipOracle)("writeZarr v2: xarray opens the written store as the original dataset", () => {
  const cases = [
    ["example_1.zarr", undefined, { codec: "zstd" }],
    ["gshhg.zarr", undefined, { codec: "none" }],
    ["cf.zarr", { time: 2 }, { codec: "zstd", level: 5 }],
  ] as const;
  for (const [store, sizes, compression] of cases) {
    it(`${store} (rows ${JSON.stringify(sizes ?? "storage grid")}, ${compression.codec}) -> v2 -> xr.open_zarr is identical`, async () => {
      const zarr = await openZarr(join(out.dir, store));
      const target = join(out.dir, `v2-${store}`);
      const result = await writeZarr(target, zarr.chunks(sizes), { version: 2, compression });
      expect(result.rows).toBe(zarr.rowCount(sizes));
      const same = JSON.parse(python([fixtureScript("xarray_same.py"), join(out.dir, store), target, "id"])) as {
        identical: boolean;
        why?: string;
      };
      expect(same.why ?? "").toBe("");
      expect(same.identical).toBe(true);
      const zarray = JSON.parse(readFileSync(join(target, zarr.variables[0]!.name, ".zarray"), "utf8")) as {
        compressor: unknown;
      };
      expect(zarray.compressor).toEqual(
        compression.codec === "zstd" ? { id: "zstd", level: "level" in compression ? compression.level : 3 } : null,
      );
    });
  }

  it("a batch with strings, booleans, nulls under _FillValue, datetime64 and a scalar -> v2 -> xarray sees the same values", async () => {
    const when = NdArray.from([new Date(0), null, new Date(86_400_000)], {
      dims: { t: 3 },
      type: new TimestampSecond(),
    });
    const depth = NdArray.scalar(12.5, { attrs: { units: "m" } });
    const batch = sample().withArrays({ when, depth });
    const target = join(out.dir, "sample-v2.zarr");
    await writeZarr(target, batch, { version: 2, chunks: { time: 2 } });
    const view = JSON.parse(python([fixtureScript("xarray_view.py"), target])) as {
      attrs: Record<string, unknown>;
      variables: Record<string, { dims: string[]; dtype: string; values: unknown[]; attrs: Record<string, unknown> }>;
    };
    expect(view.attrs).toEqual({ title: "sample", version: 2 });
    expect(view.variables.temp).toEqual({
      dims: ["time", "site"],
      shape: [5, 3],
      dtype: "<i2",
      values: [1, 2, -99, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
      attrs: { _FillValue: -99, scale_factor: 0.5, long_name: "temperature" },
    });
    expect(view.variables.site!.values).toEqual(["north", "süd", ""]);
    expect(view.variables.wet!.values).toEqual([true, false, true]);
    expect([view.variables.when!.dtype, view.variables.when!.values]).toEqual([
      "<M8[s]",
      ["0", "-9223372036854775808", "86400"],
    ]);
    expect(view.variables.depth).toEqual({ dims: [], shape: [], dtype: "<f8", values: [12.5], attrs: { units: "m" } });
    expect(readdirSync(join(target, "temp")).sort()).toEqual([".zarray", ".zattrs", "0.0", "1.0", "2.0"]);
  });
});

describe.skipIf(skipOracle)("writeZarr v2: float16", () => {
  it("float16 with a null under _FillValue and a padded edge chunk -> v2 -> xarray reads the half floats", async () => {
    const half = NdArray.from([0.5, null, 2], {
      dims: { n: 3 },
      type: new Float16(),
      attrs: { _FillValue: attr.float16(-1) },
    });
    const target = join(out.dir, "half.zarr");
    await writeZarr(target, new NdRecordBatch({ half }), { version: 2, chunks: { n: 2 } });
    const view = JSON.parse(python([fixtureScript("xarray_view.py"), target])) as {
      variables: Record<string, { dtype: string; values: unknown[]; attrs: unknown }>;
    };
    expect(view.variables.half).toMatchObject({ dtype: "<f2", values: [0.5, -1, 2], attrs: { _FillValue: -1 } });
  });
});

describe.skipIf(skipOracle)("writeZarr v3: zarr.json and chunk bytes as the v3 spec says", () => {
  for (const compression of [{ codec: "none" }, { codec: "zstd" }] as const) {
    it(`${compression.codec}: a plain-Python reader of the spec decodes every array; openZarr reads it back`, async () => {
      const target = join(out.dir, `sample-v3-${compression.codec}.zarr`);
      const result = await writeZarr(target, sample(), { chunks: { time: 2 }, compression });
      expect(result).toEqual({
        arrays: ["temp", "time", "site", "wet"],
        rows: 3,
        chunks: 3 + 3 + 1 + 1,
        dims: [
          { name: "time", size: 5 },
          { name: "site", size: 3 },
        ],
      });
      const spec = JSON.parse(python([fixtureScript("v3_spec_check.py"), target])) as {
        attributes: Record<string, unknown>;
        arrays: Record<
          string,
          {
            data_type: string;
            dimension_names: string[];
            shape: number[];
            chunk_shape: number[];
            fill_value: unknown;
            codecs: string[];
            attributes: Record<string, unknown>;
            values: unknown[];
          }
        >;
      };
      expect(spec.attributes).toEqual({ title: "sample", version: 2 });
      const codecs = (serializer: string) => (compression.codec === "zstd" ? [serializer, "zstd"] : [serializer]);
      expect(spec.arrays.temp).toEqual({
        data_type: "int16",
        dimension_names: ["time", "site"],
        shape: [5, 3],
        chunk_shape: [2, 3],
        fill_value: -99,
        codecs: codecs("bytes"),
        attributes: { _FillValue: -99, scale_factor: 0.5, long_name: "temperature" },
        values: [1, 2, -99, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
      });
      expect(spec.arrays.time).toMatchObject({
        data_type: "float64",
        chunk_shape: [2],
        values: [0, 1, 2, 3, 4],
        attributes: { units: "days since 2000-01-01" },
      });
      expect(spec.arrays.site).toMatchObject({
        data_type: "string",
        codecs: codecs("vlen-utf8"),
        values: ["north", "süd", ""],
      });
      expect(spec.arrays.wet).toMatchObject({ data_type: "bool", fill_value: false, values: [true, false, true] });

      const back = await openZarr(target);
      expect(spelledValues(await back.read("temp"))).toEqual([1, 2, -99, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
      expect(Array.from((await back.read("site")).values as Iterable<unknown>)).toEqual(["north", "süd", ""]);
      expect(back.variable("temp").chunks).toEqual([2, 3]);
    });
  }
});

/** A 10 x 6 grid with coordinates, strings along lat and flags along time. */
function grid(): NdRecordBatch {
  const field = NdArray.from(
    Float32Array.from({ length: 60 }, (_, i) => i / 2),
    {
      dims: { time: 10, lat: 6 },
      attrs: { _FillValue: attr.float32(Number.NaN), units: "K" },
    },
  );
  const time = NdArray.from(
    Float64Array.from({ length: 10 }, (_, i) => i * 6),
    { dims: { time: 10 } },
  );
  const lat = NdArray.from(new Float64Array([-50, -30, -10, 10, 30, 50]), { dims: { lat: 6 } });
  const zone = NdArray.from(["s", "s", "t", "t", "n", "n"], { dims: { lat: 6 }, type: new Utf8() });
  const wet = NdArray.from(
    Array.from({ length: 10 }, (_, i) => i % 3 === 0),
    { dims: { time: 10 }, type: new Bool() },
  );
  return new NdRecordBatch({ field, time, lat, zone, wet }, { title: "grid" });
}

/** The rows of `batch` cut to `boxes` ({ dim: [start, stop) }), each with its `chunk_offset`. */
function rowsOf(batch: NdRecordBatch, boxes: Record<string, [number, number]>[]): NdRecordBatch[] {
  return boxes.map((box) => {
    const arrays = batch
      .arrays()
      .map(
        ([name, array]) =>
          [
            name,
            slice(array, Object.fromEntries(array.dimNames.filter((d) => d in box).map((d) => [d, box[d]!]))),
          ] as const,
      );
    const row = new NdRecordBatch(arrays, batch.globalAttrs);
    return row.withGlobalAttrs(
      new Map([...batch.globalAttrs, ["chunk_offset", attr.uint32(row.grid().map((d) => box[d.name]![0]))]]),
    );
  });
}

describe.skipIf(skipOracle)("writeZarr of rows off the chunk grid, out of order", () => {
  // Rows that tile the grid unevenly (3 x 6, then 7 x 4 and 7 x 2), given last first.
  const boxes: Record<string, [number, number]>[] = [
    { time: [3, 10], lat: [4, 6] },
    { time: [0, 3], lat: [0, 6] },
    { time: [3, 10], lat: [0, 4] },
  ];

  it("into chunks of 4 x 4 (v3): the spec reader decodes the original values on that grid", async () => {
    const target = join(out.dir, "uneven-v3.zarr");
    const result = await writeZarr(target, rowsOf(grid(), boxes), { chunks: { time: 4, lat: 4 } });
    expect(result).toMatchObject({ rows: 3, chunks: 3 * 2 + 3 + 2 + 2 + 3 });
    const spec = JSON.parse(python([fixtureScript("v3_spec_check.py"), target])) as {
      arrays: Record<string, { shape: number[]; chunk_shape: number[]; values: unknown[] }>;
    };
    expect(spec.arrays.field).toMatchObject({
      shape: [10, 6],
      chunk_shape: [4, 4],
      values: Array.from({ length: 60 }, (_, i) => i / 2),
    });
    expect(spec.arrays.zone).toMatchObject({ chunk_shape: [4], values: ["s", "s", "t", "t", "n", "n"] });
    expect(spec.arrays.wet).toMatchObject({
      chunk_shape: [4],
      values: Array.from({ length: 10 }, (_, i) => i % 3 === 0),
    });
  });

  for (const chunks of [{ time: 4, lat: 4 }, undefined]) {
    it(`into chunks of ${chunks === undefined ? "the first row's block (7 x 2)" : "4 x 4"} (v2): xr.open_zarr sees the original dataset`, async () => {
      const original = join(out.dir, `grid-${chunks === undefined ? "first" : "4x4"}.zarr`);
      await writeZarr(original, grid(), { version: 2 });
      const target = join(out.dir, `uneven-v2-${chunks === undefined ? "first" : "4x4"}.zarr`);
      await writeZarr(target, rowsOf(grid(), boxes), { version: 2, ...(chunks === undefined ? {} : { chunks }) });
      const same = JSON.parse(python([fixtureScript("xarray_same.py"), original, target])) as { why?: string };
      expect(same.why ?? "").toBe("");
      const zarray = JSON.parse(readFileSync(join(target, "field", ".zarray"), "utf8")) as { chunks: number[] };
      expect(zarray.chunks).toEqual(chunks === undefined ? [7, 2] : [4, 4]);
    });
  }
});

describe.skipIf(skipOracle)("writeZarr of byte strings (Binary) as |S<n>", () => {
  /** 4 x 3 byte strings: bytes that are not UTF-8, NULs inside, an empty one, and a null (written as the fill value). */
  function codes(width: number): NdRecordBatch {
    const texts = ["ab", "\xe9t\xe9", "", "z\x00y", null, "abcde", "q", "rs", "t", "u", "vw", "xyz"];
    const values = texts.map((t) => (t === null ? null : Uint8Array.from(Buffer.from(t, "latin1"))));
    const code = NdArray.from(binaryVector(values), {
      dims: { a: 4, b: 3 },
      attrs: { _FillValue: "none", _CharDimSize: attr.int32(width), long_name: "code" },
    });
    return new NdRecordBatch({ code });
  }

  it("rows off the chunk grid (written in pieces) -> v2 -> zarr-python reads every byte, the width and the fill; openZarr reads them back", async () => {
    const target = join(out.dir, "codes-v2.zarr");
    const boxes: Record<string, [number, number]>[] = [
      { a: [2, 4], b: [0, 3] },
      { a: [0, 2], b: [0, 1] },
      { a: [0, 2], b: [1, 3] },
    ];
    await writeZarr(target, rowsOf(codes(6), boxes), { version: 2, chunks: { a: 3, b: 2 } });
    const view = JSON.parse(
      python([
        "-c",
        `import sys, json, zarr
z = zarr.open(sys.argv[1], mode="r")["code"]
print(json.dumps({"dtype": z.dtype.str, "fill": list(z.fill_value), "chunks": list(z.chunks), "attrs": dict(z.attrs),
  "values": [list(v) for v in z[:].ravel()]}))`,
        target,
      ]),
    ) as Record<string, unknown>;
    const bytes = (t: string) => [...Buffer.from(t, "latin1")];
    expect(view).toEqual({
      dtype: "|S6",
      fill: bytes("none"),
      chunks: [3, 2],
      attrs: { _ARRAY_DIMENSIONS: ["a", "b"], long_name: "code" },
      values: ["ab", "\xe9t\xe9", "", "z\x00y", "none", "abcde", "q", "rs", "t", "u", "vw", "xyz"].map(bytes),
    });
    const back = await openZarr(target);
    const code = await back.read("code");
    expect(String(code.type)).toBe("Binary");
    expect(Object.fromEntries([...code.attrs].map(([k, v]) => [k, v.toJS()]))).toEqual({
      long_name: "code",
      _CharDimSize: 6,
      _FillValue: "none",
    });
  });

  it("a value longer than its _CharDimSize is InvalidArgument naming the array; v3 is UnsupportedType", async () => {
    const narrow = await writeZarr(join(out.dir, "narrow.zarr"), codes(4), { version: 2 }).catch((e: unknown) => e);
    expect(isZarrError(narrow, "InvalidArgument")).toBe(true);
    expect((narrow as Error).message).toContain("value 5 has 5 bytes, more than the width 4 of |S4");
    expect((narrow as { variable?: string }).variable).toBe("code");
    const v3 = await writeZarr(join(out.dir, "codes-v3.zarr"), codes(6)).catch((e: unknown) => e);
    expect(isZarrError(v3, "UnsupportedType")).toBe(true);
    expect(existsSync(join(out.dir, "narrow.zarr"))).toBe(false);
  });
});

/** A Binary vector of `values` (null: a null). */
function binaryVector(values: readonly (Uint8Array | null)[]): Vector {
  const valueOffsets = new Int32Array(values.length + 1);
  values.forEach((v, i) => {
    valueOffsets[i + 1] = valueOffsets[i]! + (v?.length ?? 0);
  });
  const data = new Uint8Array(valueOffsets[values.length]!);
  values.forEach((v, i) => {
    if (v !== null) data.set(v, valueOffsets[i]!);
  });
  const nullBitmap = Uint8Array.from({ length: Math.ceil(values.length / 8) }, (_, byte) =>
    values.slice(byte * 8, byte * 8 + 8).reduce((bits, v, k) => (v === null ? bits : bits | (1 << k)), 0),
  );
  const nullCount = values.filter((v) => v === null).length;
  return new Vector([
    makeData({ type: new Binary(), length: values.length, valueOffsets, data, nullBitmap, nullCount }),
  ]);
}

describe.skipIf(skipOracle)("writeZarr refuses bad input and leaves the output as it was", () => {
  async function refused(
    target: string,
    rows: Parameters<typeof writeZarr>[1],
    options: Parameters<typeof writeZarr>[2],
  ) {
    const err = await writeZarr(target, rows, options).catch((e: unknown) => e);
    expect(isZarrError(err), String(err)).toBe(true);
    return err as Error & { code: string; variable?: string; path?: string };
  }

  it("an existing store under mode create (the default), or the removed option overwrite: InvalidArgument, the store unchanged", async () => {
    const target = join(out.dir, "existing.zarr");
    await writeZarr(target, sample());
    const before = readFileSync(join(target, "zarr.json"), "utf8");
    for (const options of [{ version: 2 }, { mode: "create" }, { overwrite: true }] as const) {
      const err = await refused(target, sample(), options as Parameters<typeof writeZarr>[2]);
      expect([err.code, err.path], JSON.stringify(options)).toEqual(["InvalidArgument", target]);
      expect(readFileSync(join(target, "zarr.json"), "utf8")).toBe(before);
    }
    await writeZarr(target, sample(), { version: 2, mode: "overwrite" });
    expect((await openZarr(target)).format).toBe(2);
  });

  it("a failure while overwriting keeps the old store (the new one is moved in only when complete)", async () => {
    const target = join(out.dir, "kept.zarr");
    await writeZarr(target, sample());
    const when = NdArray.from([new Date(0)], { dims: { t: 1 }, type: new TimestampSecond() });
    const err = await refused(target, sample().withArrays({ when }), { mode: "overwrite" });
    expect([err.code, err.variable]).toEqual(["UnsupportedType", "when"]);
    expect(err.message).toContain("Timestamp");
    expect((await openZarr(target)).variables.map((v) => v.name)).toEqual(["site", "temp", "time", "wet"]);
    expect(readdirSync(out.dir).filter((n) => n.includes(".writing-"))).toEqual([]);
  });

  it("a path the system cannot create (under /proc, where mkdir says ENOENT below an existing parent): WriteFailed naming it", async () => {
    for (const target of ["/proc/lance-nd.zarr", "/proc/lance-nd/deeper/out.zarr"]) {
      const err = await refused(target, sample(), {});
      expect([err.code, err.path]).toEqual(["WriteFailed", target]);
      expect(err.message).toContain("cannot create the output directory (ENOENT)");
    }
  });

  it("bad options, nulls without _FillValue, rows that disagree on a cell: typed errors naming what and where", async () => {
    expect((await refused(join(out.dir, "o1.zarr"), sample(), { version: 4 } as never)).message).toContain(
      "invalid writeZarr options: version = 4",
    );
    expect((await refused(join(out.dir, "o2.zarr"), sample(), { compression: { codec: "gzip" } } as never)).code).toBe(
      "InvalidArgument",
    );
    const holes = new NdRecordBatch({ x: NdArray.from([1, null], { dims: { n: 2 }, type: new Float64() }) });
    const nulls = await refused(join(out.dir, "o3.zarr"), holes, {});
    expect([nulls.code, nulls.variable]).toEqual(["InvalidArgument", "x"]);
    expect(nulls.message).toContain("_FillValue");
    const row = (start: number, values: number[]) =>
      new NdRecordBatch(
        { x: NdArray.from(new Float64Array(values), { dims: { n: values.length } }) },
        { chunk_offset: attr.uint32([start]) },
      );
    const overlap = await refused(join(out.dir, "o4.zarr"), [row(0, [1, 2, 3, 4]), row(3, [5, 6, 7, 8])], {});
    expect([overlap.code, overlap.variable]).toEqual(["InvalidArgument", "x"]);
    expect(overlap.message).toContain("row 1 has other values");
    const unknownDim = await refused(join(out.dir, "o6.zarr"), [row(0, [1])], { chunks: { depth: 2 } });
    expect(unknownDim.message).toContain("options.chunks names depth, which the rows do not have (their dims: n)");
    const dataset = (id: string, values: number[]) =>
      new NdRecordBatch(
        { x: NdArray.from(new Float64Array(values), { dims: { n: values.length } }) },
        { id, chunk_offset: attr.uint32([0]) },
      );
    const twice = await refused(join(out.dir, "o5.zarr"), [dataset("a", [1, 2]), dataset("b", [3, 4])], {});
    expect([twice.code, twice.variable]).toEqual(["InvalidArgument", "x"]);
    expect(twice.message).toContain("several datasets");
    expect((await writeZarr(join(out.dir, "same.zarr"), [dataset("a", [1, 2]), dataset("a", [1, 2])])).chunks).toBe(1);
    for (const name of ["o1.zarr", "o2.zarr", "o3.zarr", "o4.zarr", "o5.zarr", "o6.zarr"])
      expect(existsSync(join(out.dir, name)), name).toBe(false);
  });
});
