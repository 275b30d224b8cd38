import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { failure } from "@lance-nd/test-helpers";
import { CHUNK_OFFSET } from "@lance-nd/nd-arrow";
import type { NdArray } from "@lance-nd/nd-arrow";
import { isNetcdfError, openNetcdf } from "../src/index.js";
import { makeXarrayFixtures, xarrayVariables, xarraySkipReason } from "./xarray-oracle.js";
import type { DumpVariable } from "./xarray-oracle.js";

const skip = xarraySkipReason();

/** The values of a row-major `shape` array inside `window` ([start, stop) per axis). */
function windowOf(values: unknown[], shape: number[], window: [number, number][]): unknown[] {
  const out: unknown[] = [];
  const walk = (axis: number, offset: number): void => {
    if (axis === shape.length) {
      out.push(values[offset]);
      return;
    }
    const stride = shape.slice(axis + 1).reduce((n, s) => n * s, 1);
    for (let i = window[axis]![0]; i < window[axis]![1]; i++) walk(axis + 1, offset + i * stride);
  };
  walk(0, 0);
  return out;
}

function plain(array: NdArray): unknown[] {
  return Array.from(array.toArray() as ArrayLike<unknown>, (v) =>
    typeof v === "number" && Number.isNaN(v) ? "NaN" : typeof v === "bigint" ? String(v) : v,
  );
}

describe.skipIf(skip !== undefined)(`openNetcdf windows and rows against xarray${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  let oracle: Record<string, DumpVariable>[];
  beforeAll(() => {
    dir = makeXarrayFixtures();
    oracle = xarrayVariables(join(dir, "big.nc"), join(dir, "packed.nc"));
  });

  it("every window of a netCDF-3 fixed and record variable is xarray's slice (byte-range reads)", async () => {
    const file = await openNetcdf(join(dir, "big.nc"));
    expect(file.format).toBe("classic");
    expect(file.dims.find((d) => d.name === "t")).toEqual({ name: "t", size: 6, unlimited: true });
    for (const name of ["grid", "rec"]) {
      const want = oracle[0]![name]!;
      const [a, b] = want.dims;
      for (const w of [
        [
          [0, 1],
          [0, 9],
        ],
        [
          [2, 5],
          [3, 7],
        ],
        [
          [5, 6],
          [8, 9],
        ],
        [
          [0, want.shape[0]!],
          [0, 9],
        ],
      ] as [number, number][][]) {
        const got = await file.read(name, { [a!]: w[0]!, [b!]: w[1]! });
        expect({ name, w, values: plain(got) }).toEqual({ name, w, values: windowOf(want.values, want.shape, w) });
      }
    }
    await file.close();
  });

  it("a netCDF-4 hyperslab is xarray's slice; chars come back as strings with their char dim recorded", async () => {
    const file = await openNetcdf(join(dir, "packed.nc"));
    const want = oracle[1]!.sst!;
    const w: [number, number][] = [
      [1, 3],
      [1, 3],
      [2, 5],
    ];
    const got = await file.read("sst", { time: w[0]!, lat: w[1]!, lon: w[2]! });
    expect(got.shape).toEqual([2, 2, 3]);
    expect(plain(got)).toEqual(windowOf(want.values, want.shape, w));
    const station = await file.read("station");
    expect(Array.from(station.values)).toEqual(["ALPHA", "BRAVO-12", "C", "DELTA"]);
    expect([station.attr("_CharDim"), station.attr("_CharDimSize")]).toEqual(["strlen", 8]);
    expect(file.variable("sst").compression).toEqual({ codec: "deflate", level: 4, shuffle: true });
    expect(file.variable("sst").chunking).toEqual([1, 2, 5]);
    await file.close();
  });

  it("chunks yield every row once, with chunk_offset, covering the file like nd-arrow's chunk", async () => {
    const file = await openNetcdf(join(dir, "big.nc"));
    const rows = [];
    for await (const row of file.chunks({ t: 4, y: 3 })) rows.push(row);
    // The grid is the dims in order of first appearance: y, x (grid), then t (rec).
    expect(rows.map((r) => r.globalAttr(CHUNK_OFFSET))).toEqual([
      [0, 0, 0],
      [0, 0, 4],
      [3, 0, 0],
      [3, 0, 4],
      [6, 0, 0],
      [6, 0, 4],
    ]);
    const rec = oracle[0]!.rec!;
    expect(plain(rows[1]!.get("rec")!)).toEqual(
      windowOf(rec.values, rec.shape, [
        [4, 6],
        [0, 9],
      ]),
    );
    const grid = oracle[0]!.grid!;
    expect(plain(rows[5]!.get("grid")!)).toEqual(
      windowOf(grid.values, grid.shape, [
        [6, 7],
        [0, 9],
      ]),
    );
    await file.close();
  });

  it("an unknown variable is VariableNotFound, an index outside its dim InvalidArgument, chunks along an unknown dim DimNotFound", async () => {
    const file = await openNetcdf(join(dir, "packed.nc"));
    expect(isNetcdfError(await failure(() => file.read("nope")), "VariableNotFound")).toBe(true);
    expect(isNetcdfError(await failure(() => file.read("sst", { time: 9 })), "InvalidArgument")).toBe(true);
    expect(
      isNetcdfError(
        await failure(async () => {
          for await (const _ of file.chunks({ depth: 1 })) void _;
        }),
        "DimNotFound",
      ),
    ).toBe(true);
    await file.close();
  });

  it("options their schema refuses are InvalidArgument: the file, the call, each option with its value and why", async () => {
    const path = join(dir, "packed.nc");
    const err = await failure(() => openNetcdf(path, { group: 3, cf: true } as never));
    expect(isNetcdfError(err, "InvalidArgument")).toBe(true);
    expect((err as Error).message).toBe(
      `${path}: invalid openNetcdf options: group = 3: Invalid input: expected string, received number; unknown option "cf"`,
    );
  });
});
