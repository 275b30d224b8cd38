import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isZarrError, openZarr } from "../src/index.js";
import { fixtureStores, python, skipOracle } from "./python-oracle.js";
import { expectLayout } from "./expect-layout.js";
import { spelledAttrs, spelledValues } from "./spelled.js";

interface XarrayVariable {
  dims: string[];
  shape: number[];
  dtype: string;
  values: unknown[];
  attrs: Record<string, unknown>;
}
interface XarrayView {
  attrs: Record<string, unknown>;
  variables: Record<string, XarrayVariable>;
}

const out = fixtureStores<Record<string, XarrayView>>("xarray_v2_stores.py", "lance-nd-zarr-v2-");

describe.skipIf(skipOracle)("openZarr on v2 stores xarray and zarr-python wrote", () => {
  for (const store of ["example_1.zarr", "gshhg.zarr", "cf.zarr"]) {
    it(`${store}: every array's dims, values and attributes are xarray's`, async () => {
      const view = out.expected[store]!;
      const zarr = await openZarr(join(out.dir, store));
      expect(zarr.format).toBe(2);
      expect(zarr.consolidated).toBe(store !== "gshhg.zarr");
      expect(zarr.variables.map((v) => v.name).sort()).toEqual(Object.keys(view.variables).sort());
      expect(spelledAttrs(zarr.globalAttrs)).toEqual({ ...view.attrs, id: store });
      for (const [name, want] of Object.entries(view.variables)) {
        const got = await zarr.read(name);
        expectLayout(got, want, name);
        expect(spelledValues(got), name).toEqual(want.values);
        expect(spelledAttrs(got.attrs), name).toEqual(want.attrs);
      }
    });
  }

  it("types.zarr: big-endian, Fortran order, '/' chunk keys, |S, <U, datetime64[s] (NaT null) and float16 read as xarray reads them", async () => {
    const view = out.expected["types.zarr"]!;
    const zarr = await openZarr(join(out.dir, "types.zarr"));
    const types = Object.fromEntries(zarr.variables.map((v) => [v.name, String(v.type)]));
    expect(types).toEqual({
      big_endian: "Int32",
      bytes: "Binary",
      fortran: "Float64",
      halves: "Float16",
      unicode: "Utf8",
      when: "Timestamp<SECOND>",
    });
    for (const [name, want] of Object.entries(view.variables)) {
      const got = await zarr.read(name);
      const values = spelledValues(got);
      if (name === "when") {
        const raw = Array.from(got.values.data[0]!.values as BigInt64Array, String);
        expect(raw.filter((_, i) => got.values.isValid(i))).toEqual(
          want.values.filter((v) => v !== "-9223372036854775808"),
        );
        expect(values.map((v) => v === null)).toEqual(want.values.map((v) => v === "-9223372036854775808"));
        continue;
      }
      expect(values, name).toEqual(want.values);
      if (name === "big_endian" || name === "fortran" || name === "halves")
        expect(spelledAttrs(got.attrs), name).toEqual(want.attrs);
    }
  });

  it("reads a window: only the window's values, dims of the window's sizes, an index drops its dim", async () => {
    const zarr = await openZarr(join(out.dir, "cf.zarr"));
    const whole = await zarr.read("temp");
    const part = await zarr.read("temp", { time: [2, 5], lat: 1, lon: [3, 7] });
    expect(part.dims).toEqual([
      { name: "time", size: 3 },
      { name: "lon", size: 4 },
    ]);
    const all = whole.toArray() as Int16Array;
    const want: number[] = [];
    for (let t = 2; t < 5; t++) for (let x = 3; x < 7; x++) want.push(all[t * 35 + 1 * 7 + x]!);
    expect([...(part.toArray() as Int16Array)]).toEqual(want);
  });

  it("windows on and off the chunk grid (edge chunks included) hold the same values as the whole array sliced", async () => {
    const zarr = await openZarr(join(out.dir, "cf.zarr"));
    const all = (await zarr.read("temp")).toArray() as Int16Array; // (6, 5, 7) in chunks of (2, 3, 4)
    const windows: [number, number][][] = [
      [
        [2, 6],
        [3, 5],
        [4, 7],
      ], // on the grid, edge chunks along lat and lon
      [
        [0, 2],
        [0, 3],
        [0, 4],
      ], // one chunk
      [
        [1, 4],
        [2, 5],
        [1, 6],
      ], // off the grid
      [
        [0, 6],
        [0, 5],
        [0, 7],
      ], // whole
    ];
    for (const [time, lat, lon] of windows) {
      const part = await zarr.read("temp", { time: time!, lat: lat!, lon: lon! });
      const want: number[] = [];
      for (let t = time![0]; t < time![1]; t++)
        for (let y = lat![0]; y < lat![1]; y++)
          for (let x = lon![0]; x < lon![1]; x++) want.push(all[t * 35 + y * 7 + x]!);
      expect([...(part.toArray() as Int16Array)], JSON.stringify([time, lat, lon])).toEqual(want);
    }
    const types = await openZarr(join(out.dir, "types.zarr"));
    const fortran = (await types.read("fortran", { fortran_0: [2, 3], fortran_1: [2, 4] })).toArray();
    expect([...(fortran as Float64Array)]).toEqual([10, 11]);
  });

  it("a single-array store is one variable named after the store; missing chunks are the fill value", async () => {
    const zarr = await openZarr(join(out.dir, "single.zarr"));
    expect(zarr.variables.map((v) => [v.name, v.dims])).toEqual([
      [
        "single",
        [
          { name: "dim_0", size: 3 },
          { name: "dim_1", size: 4 },
        ],
      ],
    ]);
    expect([...((await zarr.read("single")).toArray() as Int16Array)]).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, -1, -1, -1, -1,
    ]);
  });

  it("complex and structured dtypes are refused with UnsupportedType naming the array and the type", async () => {
    for (const [store, type] of [
      ["complex.zarr", "<c8"],
      ["structured.zarr", "structured"],
    ] as const) {
      const err = await openZarr(join(out.dir, store)).catch((e: unknown) => e);
      expect(isZarrError(err, "UnsupportedType"), String(err)).toBe(true);
      expect((err as Error).message).toContain(type);
      expect((err as { variable?: string }).variable).toBe(store.replace(".zarr", ""));
    }
  });
});

describe.skipIf(skipOracle)("openZarr keeps the int / float kind of xarray's attributes", () => {
  for (const consolidated of [true, false]) {
    it(`1.0 is a Float64, 1 an Int64 (consolidated: ${consolidated})`, async () => {
      const store = join(out.dir, `kinds-${consolidated}.zarr`);
      python([
        "-c",
        `import sys, numpy as np, xarray as xr
ds = xr.Dataset({"v": ("x", np.zeros(2, "f4"), {"h": 1.0, "n": 3, "r": [0.0, 1.0], "s": 0.5})}, attrs={"g": 2.0, "k": 7})
ds.to_zarr(sys.argv[1], consolidated=sys.argv[2] == "1")`,
        store,
        consolidated ? "1" : "0",
      ]);
      const zarr = await openZarr(store);
      const types = (attrs: ReadonlyMap<string, { type: unknown }>) =>
        Object.fromEntries([...attrs].map(([k, v]) => [k, String(v.type)]));
      expect(types(zarr.globalAttrs)).toMatchObject({ g: "Float64", k: "Int64" });
      expect(types((await zarr.read("v")).attrs)).toEqual({
        h: "Float64",
        n: "Int64",
        r: "List<Float64>",
        s: "Float64",
        _FillValue: "Float32",
      });
    });
  }
});
