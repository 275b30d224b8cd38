import { describe, expect, it } from "vitest";
import { MAX_BLOCK_ROW_BYTES, ROW_BYTES } from "@lance-nd/nd-arrow/internal";
import { rowCount, rowSteps, rowWindows } from "../src/row-grid.js";
import { isZarrError } from "../src/zarr-error.js";

const dims = [
  { name: "time", size: 4 },
  { name: "lat", size: 1000 },
  { name: "lon", size: 1000 },
];
const sst = (block: number[]) => ({ name: "sst", dims, itemBytes: 4, block });
const lat = { name: "lat", dims: [dims[1]!], itemBytes: 8, block: [1000] };

describe("rowSteps", () => {
  it("storage blocks of 1 MiB or more are the rows: the largest variable's chunk grid, coordinates cut along", () => {
    const steps = rowSteps(dims, [lat, sst([1, 1000, 1000])]);
    expect(Object.fromEntries(steps)).toEqual({ time: 1, lat: 1000, lon: 1000 });
    expect(rowCount(dims, steps)).toBe(4);
  });

  it("the shard grid is the storage grid of a sharded array", () => {
    const steps = rowSteps(dims, [sst([2, 500, 1000])]);
    expect(Object.fromEntries(steps)).toEqual({ time: 2, lat: 500, lon: 1000 });
  });

  it("blocks under 1 MiB merge along the slowest dims, then the next, up to 1 MiB, on the block grid", () => {
    const steps = rowSteps(dims, [sst([1, 100, 100])]);
    expect(Object.fromEntries(steps)).toEqual({ time: 4, lat: 600, lon: 100 });
    const bytes = 4 * 4 * 600 * 100;
    expect(bytes).toBeLessThanOrEqual(ROW_BYTES);
    expect(bytes * 2).toBeGreaterThan(ROW_BYTES);
  });

  it("a block over 1 MiB is one row up to 8 MiB and cut along its slowest dims beyond", () => {
    expect(Object.fromEntries(rowSteps(dims, [sst([2, 1000, 1000])]))).toEqual({ time: 2, lat: 1000, lon: 1000 });
    const big = [{ name: "t", size: 16 }, ...dims.slice(1)];
    const steps = rowSteps(big, [{ name: "sst", dims: big, itemBytes: 4, block: [16, 1000, 1000] }]);
    expect(4 * steps.get("t")! * 1000 * 1000).toBeLessThanOrEqual(MAX_BLOCK_ROW_BYTES);
    expect(steps.get("t")).toBe(2);
  });

  it("explicit sizes override the storage grid; dims not named are whole", () => {
    expect(Object.fromEntries(rowSteps(dims, [sst([1, 100, 100])], { lat: 250 }))).toEqual({
      time: 4,
      lat: 250,
      lon: 1000,
    });
  });

  it("an unknown dim is DimNotFound, a size that is not an integer >= 1 InvalidArgument", () => {
    for (const sizes of [{ depth: 2 }, { lat: 0 }, { lat: 2.5 }] as Record<string, number>[]) {
      let err: unknown;
      try {
        rowSteps(dims, [sst([1, 100, 100])], sizes, "x.zarr");
      } catch (e) {
        err = e;
      }
      expect(isZarrError(err, "depth" in sizes ? "DimNotFound" : "InvalidArgument"), JSON.stringify(sizes)).toBe(true);
    }
  });
});

describe("rowWindows", () => {
  it("covers every cell once, in row-major order, the last row along a dim clipped", () => {
    const small = [
      { name: "a", size: 5 },
      { name: "b", size: 3 },
    ];
    const windows = [
      ...rowWindows(
        small,
        new Map([
          ["a", 2],
          ["b", 3],
        ]),
      ),
    ];
    expect(windows.map((w) => [w.offset, [...w.window.values()]])).toEqual([
      [
        [0, 0],
        [
          [0, 2],
          [0, 3],
        ],
      ],
      [
        [2, 0],
        [
          [2, 4],
          [0, 3],
        ],
      ],
      [
        [4, 0],
        [
          [4, 5],
          [0, 3],
        ],
      ],
    ]);
  });
});
