import { describe, expect, it } from "vitest";
import { ROW_TARGET_BYTES, SMALL_BLOCK_BYTES, rowCount, rowSteps, rowWindows } from "../src/row-grid.js";
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

  it("blocks under 1 MiB merge along the slowest dims, then the next, up to about 8 MiB", () => {
    const steps = rowSteps(dims, [sst([1, 100, 100])]);
    expect(Object.fromEntries(steps)).toEqual({ time: 4, lat: 1000, lon: 500 });
    const bytes = 4 * 4 * 1000 * 500;
    expect(bytes).toBeLessThanOrEqual(ROW_TARGET_BYTES);
    expect(bytes).toBeGreaterThan(SMALL_BLOCK_BYTES);
  });

  it("explicit sizes override the storage grid; dims not named are whole", () => {
    expect(Object.fromEntries(rowSteps(dims, [sst([1, 100, 100])], { lat: 250 }))).toEqual({
      time: 4,
      lat: 250,
      lon: 1000,
    });
  });

  it("an unknown dim or a size that is not an integer >= 1 is InvalidArgument", () => {
    for (const sizes of [{ depth: 2 }, { lat: 0 }, { lat: 2.5 }] as Record<string, number>[]) {
      let err: unknown;
      try {
        rowSteps(dims, [sst([1, 100, 100])], sizes, "x.zarr");
      } catch (e) {
        err = e;
      }
      expect(isZarrError(err, "InvalidArgument"), JSON.stringify(sizes)).toBe(true);
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
