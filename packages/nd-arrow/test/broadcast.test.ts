import { Float32, Int32, Utf8 } from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { broadcast, broadcastBatch } from "../src/broadcast.js";
import { NdRecordBatch } from "../src/batch.js";
import { NdArray } from "../src/ndarray.js";
import type { Dim } from "../src/ndarray.js";
import { arrayArb, gridArb, plainArray, subDimsArb } from "./grid-arbitraries.js";
import { codeOf } from "./thrown.js";

/** What broadcast must give, computed cell by cell from coordinates. */
function naive(array: NdArray, grid: readonly Dim[]): unknown[] {
  const total = grid.reduce((n, d) => n * d.size, 1);
  const src = Array.from(array.values);
  return Array.from({ length: total }, (_, cell) => {
    const coords = new Map<string, number>();
    for (let d = grid.length - 1, rest = cell; d >= 0; d--) {
      coords.set(grid[d]!.name, rest % grid[d]!.size);
      rest = Math.floor(rest / grid[d]!.size);
    }
    let at = 0;
    for (const dim of array.dims) at = at * dim.size + (dim.size === 1 ? 0 : coords.get(dim.name)!);
    return src[at];
  });
}

describe("broadcast", () => {
  it("a 1-D array repeats along the grid dims it lacks", () => {
    const lat = NdArray.from(new Float32Array([-45, 0, 45]), { dims: { lat: 3 } });
    const out = broadcast(lat, { time: 2, lat: 3, lon: 2 });
    expect(out.dims).toEqual([
      { name: "time", size: 2 },
      { name: "lat", size: 3 },
      { name: "lon", size: 2 },
    ]);
    expect(Array.from(out.values)).toEqual([-45, -45, 0, 0, 45, 45, -45, -45, 0, 0, 45, 45]);
  });

  it("the result follows the grid's dim order (transposes)", () => {
    const a = NdArray.from(new Int32Array([1, 2, 3, 4, 5, 6]), { dims: { y: 2, x: 3 } });
    const out = broadcast(a, [
      { name: "x", size: 3 },
      { name: "y", size: 2 },
    ]);
    expect(out.dimNames).toEqual(["x", "y"]);
    expect(Array.from(out.values)).toEqual([1, 4, 2, 5, 3, 6]);
  });

  it("a dim of size 1 stretches to the grid's size", () => {
    const a = NdArray.from(["a", null], { dims: { x: 1, y: 2 }, type: new Utf8() });
    const out = broadcast(a, [
      ["x", 3],
      ["y", 2],
    ]);
    expect(out.shape).toEqual([3, 2]);
    expect(Array.from(out.values)).toEqual(["a", null, "a", null, "a", null]);
  });

  it("nulls, attributes and metadata are kept", () => {
    const a = NdArray.from([1, null], {
      dims: { x: 2 },
      type: new Int32(),
      attrs: { units: "m" },
      metadata: { k: "v" },
    });
    const out = broadcast(a, { t: 2, x: 2 });
    expect(Array.from(out.values)).toEqual([1, null, 1, null]);
    expect(out.values.nullCount).toBe(2);
    expect(out.attr("units")).toBe("m");
    expect(out.metadata.get("k")).toBe("v");
  });

  it("a scalar fills the whole grid", () => {
    const out = broadcast(NdArray.scalar(1.5), { a: 2, b: 2 });
    expect(Array.from(out.values)).toEqual([1.5, 1.5, 1.5, 1.5]);
  });

  it("a layout that does not change reuses the values without a copy", () => {
    const a = NdArray.from(new Float32Array(6), { dims: { y: 2, x: 3 } });
    expect(broadcast(a, { y: 2, x: 3 }).values).toBe(a.values);
    expect(broadcast(a, { t: 1, y: 2, x: 3 }).values).toBe(a.values);
  });

  it("a grid without one of the array's dims is InvalidDims naming the dim and its size", () => {
    const a = NdArray.from(new Float32Array(3), { dims: { lat: 3 } });
    expect(codeOf(() => broadcast(a, { lon: 3 }))).toBe("InvalidDims");
    expect(() => broadcast(a, { lon: 3 })).toThrow(/"lat" \(size 3\)/);
  });

  it("a size that differs and is not 1 is GridMismatch naming the dim and both sizes", () => {
    const a = NdArray.from(new Float32Array(3), { dims: { lat: 3 } });
    expect(codeOf(() => broadcast(a, { lat: 4 }))).toBe("GridMismatch");
    expect(() => broadcast(a, { lat: 4 })).toThrow(/"lat" has size 3 in the array but 4 in the grid/);
  });

  it("a grid with a duplicate dim is InvalidDims", () => {
    const a = NdArray.scalar(1, { type: new Float32() });
    expect(
      codeOf(() =>
        broadcast(a, [
          ["x", 1],
          ["x", 1],
        ]),
      ),
    ).toBe("InvalidDims");
  });

  it("property: broadcasting to the array's own grid is the identity", () => {
    const prop = fc.property(gridArb().chain(arrayArb), (array) => {
      const out = broadcast(array, array.dims);
      expect(out.values).toBe(array.values);
      expect(plainArray(out)).toEqual(plainArray(array));
    });
    fc.assert(prop, { seed: 42, numRuns: 100 });
  });

  it("property: every cell holds the array's value at the same coordinates (any dim order, nulls)", () => {
    const prop = fc.property(
      gridArb().chain((grid) => fc.tuple(fc.constant(grid), subDimsArb(grid).chain(arrayArb))),
      ([grid, array]) => {
        const out = broadcast(array, grid);
        expect(out.dims).toEqual(grid);
        expect(Array.from(out.values)).toEqual(naive(array, grid));
      },
    );
    fc.assert(prop, { seed: 42, numRuns: 200 });
  });
});

describe("broadcastBatch", () => {
  it("every array goes to the batch grid, names and global attributes kept", () => {
    const sst = NdArray.from(new Float32Array(2 * 3), { dims: { lat: 2, lon: 3 } });
    const lat = NdArray.from(new Float32Array([10, 20]), { dims: { lat: 2 } });
    const out = broadcastBatch(new NdRecordBatch({ sst, lat }, { id: "a" }));
    expect(out.names()).toEqual(["sst", "lat"]);
    expect(out.get("lat")!.shape).toEqual([2, 3]);
    expect(Array.from(out.get("lat")!.values)).toEqual([10, 10, 10, 20, 20, 20]);
    expect(out.globalAttr("id")).toBe("a");
  });
});
