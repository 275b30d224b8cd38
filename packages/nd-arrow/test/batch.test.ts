import { describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch } from "../src/index.js";
import { errorOf } from "./thrown.js";

const arr = (dims: Record<string, number>) =>
  NdArray.from(new Float64Array(Object.values(dims).reduce((a, b) => a * b, 1)), { dims });

describe("NdRecordBatch", () => {
  it("keeps array order and global attributes", () => {
    const b = new NdRecordBatch({ b: arr({ x: 2 }), a: arr({ x: 2 }) }, { id: "a" });
    expect(b.names()).toEqual(["b", "a"]);
    expect(b.numArrays).toBe(2);
    expect(b.has("a")).toBe(true);
    expect(b.get("zz")).toBeUndefined();
    expect(b.globalAttr("id")).toBe("a");
    expect(b.arrays().map(([n]) => n)).toEqual(["b", "a"]);
  });

  it("grid: dims of the highest-rank array first, then first appearance", () => {
    const b = new NdRecordBatch([
      ["lat", arr({ lat: 2 })],
      ["extra", arr({ band: 3, lat: 2 })],
      ["sst", arr({ time: 4, lat: 2, lon: 5 })],
      ["other", arr({ time: 4, lat: 2, z: 6 })],
    ]);
    expect(b.grid()).toEqual([
      { name: "time", size: 4 },
      { name: "lat", size: 2 },
      { name: "lon", size: 5 },
      { name: "band", size: 3 },
      { name: "z", size: 6 },
    ]);
  });

  it("grid of an empty batch or of scalars is empty", () => {
    expect(new NdRecordBatch({}).grid()).toEqual([]);
    expect(new NdRecordBatch({ s: NdArray.scalar(1) }).grid()).toEqual([]);
  });

  it("a dim with two sizes: GridMismatch naming the array, dim and both sizes", () => {
    const e = errorOf(() => new NdRecordBatch({ a: arr({ x: 2 }), b: arr({ x: 3 }) }));
    expect(e.code).toBe("GridMismatch");
    expect(e.column).toBe("b");
    expect(e.message).toMatch(/"x".*3.*2/);
  });

  it("names starting with __: ReservedName", () => {
    expect(errorOf(() => new NdRecordBatch({ __x: arr({ x: 1 }) })).code).toBe("ReservedName");
  });

  it("empty or duplicate names: InvalidArgument", () => {
    expect(errorOf(() => new NdRecordBatch({ "": arr({ x: 1 }) })).code).toBe("InvalidArgument");
    expect(
      errorOf(
        () =>
          new NdRecordBatch([
            ["a", arr({ x: 1 })],
            ["a", arr({ x: 1 })],
          ]),
      ).code,
    ).toBe("InvalidArgument");
  });

  it("select and withArrays build validated batches", () => {
    const b = new NdRecordBatch({ a: arr({ x: 2 }), c: arr({ y: 1 }) }, { id: 1 });
    expect(b.select(["c"]).names()).toEqual(["c"]);
    expect(b.select(["c"]).globalAttr("id")).toBe(1);
    expect(errorOf(() => b.select(["nope"])).code).toBe("InvalidArgument");
    expect(b.withArrays({ d: arr({ x: 2 }) }).names()).toEqual(["a", "c", "d"]);
    expect(errorOf(() => b.withArrays({ d: arr({ x: 3 }) })).code).toBe("GridMismatch");
    expect(b.withGlobalAttrs({ id: 2 }).globalAttr("id")).toBe(2);
  });
});
