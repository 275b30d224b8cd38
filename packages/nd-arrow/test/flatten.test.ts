import { Float64, Int32, Type, Utf8 } from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NdRecordBatch } from "../src/batch.js";
import { isNdArrowError } from "../src/errors.js";
import { flatten } from "../src/flatten.js";
import { NdArray } from "../src/ndarray.js";
import { batchArb } from "./grid-arbitraries.js";

function column(table: ReturnType<typeof flatten>, name: string): unknown[] {
  return Array.from(table.getChild(name)!);
}

describe("flatten", () => {
  const temp = NdArray.from([1, 2, 3, null, 5, 6], {
    dims: { lat: 2, lon: 3 },
    type: new Float64(),
    metadata: { k: "v" },
  });
  const lat = NdArray.from(new Float64Array([-10, 10]), { dims: { lat: 2 } });
  const batch = new NdRecordBatch({ temp, lat });

  it("one row per grid cell, row-major over the grid", () => {
    const table = flatten(batch);
    expect(table.numRows).toBe(6);
    expect(column(table, "temp")).toEqual([1, 2, 3, null, 5, 6]);
  });

  it("dim columns come first, in grid order, then the other arrays in batch order", () => {
    const extra = NdArray.from(["a", "b", "c"], { dims: { lon: 3 }, type: new Utf8() });
    const table = flatten(new NdRecordBatch({ temp, extra, lat }));
    expect(table.schema.names).toEqual(["lat", "lon", "temp", "extra"]);
    expect(column(table, "extra")).toEqual(["a", "b", "c", "a", "b", "c"]);
  });

  it("a dim with a coordinate variable gets its values, with its type", () => {
    const table = flatten(batch);
    expect(column(table, "lat")).toEqual([-10, -10, -10, 10, 10, 10]);
    expect(table.schema.fields.find((f) => f.name === "lat")!.type.typeId).toBe(Type.Float);
  });

  it("a dim without a coordinate variable gets the integer index as UInt32", () => {
    const table = flatten(batch);
    const lon = table.schema.fields.find((f) => f.name === "lon")!;
    expect(lon.type.typeId).toBe(Type.Int);
    expect(String(lon.type)).toBe("Uint32");
    expect(lon.nullable).toBe(false);
    expect(column(table, "lon")).toEqual([0, 1, 2, 0, 1, 2]);
  });

  it("array columns keep nulls and the array's field metadata", () => {
    const table = flatten(batch);
    const field = table.schema.fields.find((f) => f.name === "temp")!;
    expect(field.nullable).toBe(true);
    expect(field.metadata.get("k")).toBe("v");
    expect(table.getChild("temp")!.nullCount).toBe(1);
  });

  it("a batch of scalars is one row", () => {
    const table = flatten(new NdRecordBatch({ a: NdArray.scalar(1, { type: new Int32() }) }));
    expect(table.numRows).toBe(1);
    expect(column(table, "a")).toEqual([1]);
  });

  it("an array named like a dim that is not 1-D along it is InvalidDims", () => {
    const x = NdArray.from(new Float64Array(6), { dims: { lat: 2, lon: 3 } });
    let err: unknown;
    try {
      flatten(new NdRecordBatch({ temp, lon: x }));
    } catch (e) {
      err = e;
    }
    expect(isNdArrowError(err, "InvalidDims")).toBe(true);
  });

  it("property: the row count is the product of the grid sizes, one column per dim and per other array", () => {
    const prop = fc.property(batchArb(), (b) => {
      const grid = b.grid();
      const table = flatten(b);
      expect(table.numRows).toBe(grid.reduce((n, d) => n * d.size, 1));
      expect(table.numCols).toBe(grid.length + b.names().length);
      for (const name of b.names()) expect(table.getChild(name)!.length).toBe(table.numRows);
    });
    fc.assert(prop, { seed: 42, numRuns: 60 });
  });
});
