import { Float16, makeVector, vectorFromArray } from "apache-arrow";
import { NdArray } from "@lance-nd/nd-arrow";
import { describe, expect, it } from "vitest";
import { isCliError } from "../../src/errors.js";
import { slice2d } from "../../src/plot/slice.js";

// values[t][y][x] = 100 t + 10 y + x
const cube = NdArray.from(
  Float32Array.from(
    { length: 2 * 3 * 4 },
    (_, i) => 100 * Math.floor(i / 12) + 10 * Math.floor((i % 12) / 4) + (i % 4),
  ),
  {
    dims: { time: 2, y: 3, x: 4 },
  },
);

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe("slice2d", () => {
  it("--isel fixes a dim; the two others are rows and columns in dim order", () => {
    const slice = slice2d(cube, "v", new Map([["time", 1]]));
    expect(slice.rows).toEqual({ name: "y", size: 3 });
    expect(slice.cols).toEqual({ name: "x", size: 4 });
    expect(Array.from(slice.values)).toEqual([100, 101, 102, 103, 110, 111, 112, 113, 120, 121, 122, 123]);
    expect(slice.nullMask).toBeUndefined();
  });

  it("fixing a middle dim takes a strided slice", () => {
    const slice = slice2d(cube, "v", new Map([["y", 2]]));
    expect([slice.rows?.name, slice.cols.name]).toEqual(["time", "x"]);
    expect(Array.from(slice.values)).toEqual([20, 21, 22, 23, 120, 121, 122, 123]);
  });

  it("dims of size 1 are taken at 0 without --isel", () => {
    const one = NdArray.from(Float64Array.of(1, 2, 3, 4, 5, 6), { dims: { time: 1, y: 2, x: 3 } });
    expect(Array.from(slice2d(one, "v", new Map()).values)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("nulls are NaN with a mask; 64-bit and Float16 values become numbers", () => {
    const withNull = new NdArray(vectorFromArray([1, null, 3, 4], undefined), [
      { name: "y", size: 2 },
      { name: "x", size: 2 },
    ]);
    const nulls = slice2d(withNull, "v", new Map());
    expect(Array.from(nulls.nullMask!)).toEqual([0, 1, 0, 0]);
    expect(Number.isNaN(nulls.values[1])).toBe(true);
    const big = NdArray.from(BigInt64Array.of(1n, 2n, 3n, 4n), { dims: { y: 2, x: 2 } });
    expect(Array.from(slice2d(big, "v", new Map()).values)).toEqual([1, 2, 3, 4]);
    const half = new NdArray(
      makeVector({ type: new Float16(), data: Uint16Array.of(0x3c00, 0x4000, 0x4200, 0x4400) }),
      [
        { name: "y", size: 2 },
        { name: "x", size: 2 },
      ],
    );
    expect(Array.from(slice2d(half, "v", new Map()).values)).toEqual([1, 2, 3, 4]);
  });

  it("one dim left is a line: one row of its values, no row dim", () => {
    const line = slice2d(
      cube,
      "sst",
      new Map([
        ["time", 1],
        ["y", 2],
      ]),
    );
    expect([line.rows, line.cols, Array.from(line.values)]).toEqual([
      undefined,
      { name: "x", size: 4 },
      [120, 121, 122, 123],
    ]);
  });

  it("an unknown dim, an index out of range, a slice that is not 1-D or 2-D or a string variable is InvalidArgument naming the variable", () => {
    const cases: [() => unknown, RegExp][] = [
      [() => slice2d(cube, "sst", new Map([["depth", 0]])), /variable "sst" \(time=2, y=3, x=4\): has no dim "depth"/],
      [() => slice2d(cube, "sst", new Map([["time", 2]])), /index time=2 is out of range \(0 to 1\)/],
      [
        () => slice2d(cube, "sst", new Map()),
        /3 dims of size > 1 are left \(time, y, x\); a plot draws 2 \(a map\) or 1 \(a line\): pick single indices or values of the others/,
      ],
      [
        () =>
          slice2d(
            cube,
            "sst",
            new Map([
              ["time", 0],
              ["y", 0],
              ["x", 0],
            ]),
          ),
        /no dim of size > 1 is left; a plot draws 2/,
      ],
      [
        () => slice2d(NdArray.from(["a", "b"], { dims: { x: 2 } }), "name", new Map()),
        /has type Utf8; a plot needs integers or floats/,
      ],
    ];
    for (const [fn, message] of cases) {
      const err = errorOf(fn);
      expect(isCliError(err, "InvalidArgument")).toBe(true);
      expect((err as Error).message).toMatch(message);
    }
  });
});
