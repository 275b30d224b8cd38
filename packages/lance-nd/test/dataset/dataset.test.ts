import { NdArray, NdRecordBatch, type Window } from "@lance-nd/nd-arrow";
import { afterEach, describe, expect, it, vi } from "vitest";
import { dataset } from "../../src/dataset/dataset.js";
import { planDataset } from "../../src/dataset/plan.js";
import { readWindow } from "../../src/dataset/read.js";
import { applyIsel, wholeGrid } from "../../src/dataset/selection.js";
import { col } from "../../src/read/expr.js";
import type { NdTable } from "../../src/table.js";
import { append } from "../../src/write/write.js";
import { isLanceNdError } from "../../src/errors.js";
import { tempDir } from "../helpers/make-table.js";
import { DAY, T0, levelsBatch, sstBatch, writeChunked } from "./fixture.js";

const dir = tempDir("dataset");
let n = 0;
const uri = () => `${dir}/t${n++}.lance`;

afterEach(() => vi.restoreAllMocks());

/** Arrays as `{ name: { dims, values } }` (nulls as null), for `toEqual`. */
function plain(batch: NdRecordBatch): Record<string, { dims: [string, number][]; values: unknown[] }> {
  return Object.fromEntries(
    batch
      .arrays()
      .map(([name, a]) => [
        name,
        { dims: a.dims.map((d) => [d.name, d.size]), values: Array.from(a.values as Iterable<unknown>) },
      ]),
  );
}

/**
 * The values of the box `ranges` ([start, stop) per dim) of row-major
 * `values` of `shape`, by index arithmetic: the flat index of cell
 * (i0, ..., in) is sum(ik * stride_k), walked in row-major order.
 */
function boxOf(values: readonly unknown[], shape: readonly number[], ranges: readonly [number, number][]): unknown[] {
  const strides = shape.map((_, k) => shape.slice(k + 1).reduce((n, size) => n * size, 1));
  const out: unknown[] = [];
  const walk = (k: number, offset: number): void => {
    if (k === shape.length) {
      out.push(values[offset]);
      return;
    }
    for (let i = ranges[k]![0]; i < ranges[k]![1]; i++) walk(k + 1, offset + i * strides[k]!);
  };
  walk(0, 0);
  return out;
}

/** The expected window of every array of `batch` (a formula over its flat values), with `drop` dims removed. */
function expected(batch: NdRecordBatch, window: Window, drop: string[] = []): ReturnType<typeof plain> {
  return Object.fromEntries(
    batch.arrays().map(([name, a]) => {
      const ranges = a.dims.map((d): [number, number] => {
        const range = window[d.name];
        return range === undefined ? [0, d.size] : [range[0], range[1]];
      });
      const values = boxOf(Array.from(a.values as Iterable<unknown>), a.shape, ranges);
      const dims = a.dims
        .map((d, k): [string, number] => [d.name, ranges[k]![1] - ranges[k]![0]])
        .filter(([dim]) => !drop.includes(dim));
      return [name, { dims, values }];
    }),
  );
}

/** Counts the row ids the view's pinned handle takes (the SDK call runs as usual). */
function countTakes(view: NdTable): { ids: number } {
  const counter = { ids: 0 };
  const sdk = view.lance.sdk;
  const original = sdk.takeRowIds.bind(sdk);
  vi.spyOn(sdk, "takeRowIds").mockImplementation((ids) => {
    counter.ids += ids.length;
    return original(ids);
  });
  return counter;
}

describe("dataset: plan", () => {
  it("dims, variables and chunkCount come from the rows' dim sizes and chunk_offsets", async () => {
    const table = await writeChunked(uri(), sstBatch(), { time: 4, lat: 5 });
    const ds = await dataset(table, { where: col("__global_attrs__.id").eq("sst.nc") });
    expect(ds.dims).toEqual([
      { name: "time", size: 12 },
      { name: "lat", size: 10 },
      { name: "lon", size: 8 },
    ]);
    expect(ds.chunkCount).toBe(6);
    expect(ds.variables.map((v) => [v.name, String(v.type), v.dims])).toEqual([
      ["sst", "Float32", ["time", "lat", "lon"]],
      ["time", "Timestamp<MILLISECOND, UTC>", ["time"]],
      ["lat", "Float64", ["lat"]],
      ["lon", "Float64", ["lon"]],
    ]);
    expect(ds.version).toBe(await table.version());
  });

  it("a single unchunked row (no chunk_offset) is a dataset at cell 0", async () => {
    const batch = sstBatch();
    const table = await writeChunked(uri(), batch, {});
    const ds = await dataset(table);
    expect(ds.chunkCount).toBe(1);
    expect(plain(await ds.isel({ time: [2, 4], lon: [1, 3] }).read())).toEqual(
      expected(batch, { time: [2, 4], lon: [1, 3] }),
    );
    expect(plain(await ds.read())).toEqual(plain(batch));
  });
});

describe("dataset: isel", () => {
  it("a window inside one chunk takes exactly one row, and equals the same window of the source", async () => {
    const batch = sstBatch();
    const table = await writeChunked(uri(), batch, { time: 4, lat: 5 });
    const view = await table.checkout(await table.version());
    const ds = await dataset(view);
    const taken = countTakes(view);
    const got = await ds.isel({ time: [4, 7], lat: [5, 9], lon: [2, 6] }).read(["sst"]);
    expect(taken.ids).toBe(1);
    expect(plain(got)).toEqual(expected(batch.select(["sst"]), { time: [4, 7], lat: [5, 9], lon: [2, 6] }));
    expect(got.globalAttr("title")).toBe("synthetic sst");
    expect(got.globalAttrs.has("chunk_offset")).toBe(false);
  });

  it("a window across chunks takes only the rows it overlaps; coordinates come along", async () => {
    const batch = sstBatch();
    const table = await writeChunked(uri(), batch, { time: 4, lat: 5 });
    const view = await table.checkout(await table.version());
    const taken = countTakes(view);
    const got = await (await dataset(view)).isel({ time: [3, 5], lat: [4, 6] }).read();
    expect(taken.ids).toBe(4);
    expect(plain(got)).toEqual(expected(batch, { time: [3, 5], lat: [4, 6] }));
  });

  it("rows taken in several groups (a small byte budget) are cut one by one and assembled to the same window", async () => {
    const batch = sstBatch();
    const table = await writeChunked(uri(), batch, { time: 4, lat: 5 });
    const view = await table.checkout(1);
    const plan = await planDataset(view, undefined);
    const ranges = applyIsel(view.uri, plan.grid, wholeGrid(plan.grid), { time: [3, 9], lat: [2, 8], lon: 4 });
    const grouped = await readWindow(view, plan, ranges, ["sst", "lat"], 1);
    expect(plain(grouped)).toEqual(
      expected(batch.select(["sst", "lat"]), { time: [3, 9], lat: [2, 8], lon: [4, 5] }, ["lon"]),
    );
    expect(plain(await readWindow(view, plan, ranges, ["sst", "lat"]))).toEqual(plain(grouped));
  });

  it("an integer drops the dim, as xarray does; selections compose", async () => {
    const batch = sstBatch();
    const ds = await dataset(await writeChunked(uri(), batch, { time: 4, lat: 5 }));
    const got = await ds
      .isel({ time: [2, 10] })
      .isel({ time: 3, lat: 7 })
      .read(["sst", "lat", "time"]);
    expect(plain(got)).toEqual(
      expected(batch.select(["sst", "lat", "time"]), { time: [5, 6], lat: [7, 8] }, ["time", "lat"]),
    );
    expect(got.get("lat")?.rank).toBe(0);
  });

  it("blocks: one block per overlapping chunk, cut to the selection, at its offset in the selection", async () => {
    const batch = sstBatch();
    const ds = await dataset(await writeChunked(uri(), batch, { time: 4, lat: 5 }));
    const view = ds.isel({ time: [3, 9], lat: 2 });
    const blocks = [];
    for await (const block of view.blocks(["sst"])) blocks.push(block);
    expect(blocks.map((b) => [b.offset, b.batch.get("sst")!.shape])).toEqual([
      [
        [0, 0],
        [1, 8],
      ],
      [
        [1, 0],
        [4, 8],
      ],
      [
        [5, 0],
        [1, 8],
      ],
    ]);
    const whole = await view.read(["sst"]);
    const flat = blocks.flatMap((b) => Array.from(b.batch.get("sst")!.values));
    expect(flat).toEqual(Array.from(whole.get("sst")!.values));
  });

  it("variables that do not span every dim are windowed on the dims they have", async () => {
    const batch = levelsBatch();
    const ds = await dataset(await writeChunked(uri(), batch, { level: 2, lat: 2 }));
    const window = { level: [1, 3], lat: [1, 3], lon: [0, 2] } as const;
    expect(plain(await ds.isel(window).read())).toEqual(expected(batch, window));
    expect(Array.from((await ds.isel({ level: [1, 3] }).coord("level")).values)).toEqual([850, 500]);
  });

  it("an empty window reads arrays with a zero-size dim", async () => {
    const ds = await dataset(await writeChunked(uri(), sstBatch(), { time: 4 }));
    expect((await ds.isel({ time: [4, 4] }).read(["sst"])).get("sst")?.shape).toEqual([0, 10, 8]);
  });
});

describe("dataset: sel", () => {
  it("a slice runs in the coordinate's own order, as xarray's: start is the larger on a descending latitude", async () => {
    const batch = sstBatch();
    const ds = await dataset(await writeChunked(uri(), batch, { time: 4, lat: 5 }));
    const a = await ds.sel({ lat: [10, -10] }).read(["sst", "lat"]);
    expect(Array.from(a.get("lat")!.values)).toEqual([5, -5]);
    expect(plain(a)).toEqual(expected(batch.select(["sst", "lat"]), { lat: [4, 6] }));
    // slice(-10, 10) on a descending coordinate selects nothing in xarray: the start is past the stop.
    expect((await ds.sel({ lat: [-10, 10] }).read(["sst"])).get("sst")!.shape).toEqual([12, 0, 8]);
    expect((await ds.sel({ lon: [270, 90] }).read(["sst"])).get("sst")!.shape).toEqual([12, 10, 0]);
  });

  it("a single value picks the exact match and drops the dim; method nearest picks the nearest", async () => {
    const batch = sstBatch();
    const ds = await dataset(await writeChunked(uri(), batch, { time: 4, lat: 5 }));
    expect(plain(await ds.sel({ lon: 90 }).read(["sst"]))).toEqual(
      expected(batch.select(["sst"]), { lon: [2, 3] }, ["lon"]),
    );
    const near = await ds.sel({ lat: 12.3, lon: 100 }, { method: "nearest" }).read(["lat", "lon"]);
    expect([near.get("lat")!.values.get(0), near.get("lon")!.values.get(0)]).toEqual([15, 90]);
  });

  it("Dates select on a timestamp coordinate", async () => {
    const batch = sstBatch();
    const ds = await dataset(await writeChunked(uri(), batch, { time: 4 }));
    const got = await ds.sel({ time: [new Date(T0 + 2 * DAY), new Date(T0 + 9 * DAY)] }).read(["sst"]);
    expect(plain(got)).toEqual(expected(batch.select(["sst"]), { time: [2, 10] }));
    const day = await ds.sel({ time: new Date(T0 + 3 * DAY + 5 * 3600_000) }, { method: "nearest" }).read(["time"]);
    expect(Number(day.get("time")!.values.get(0))).toBe(T0 + 3 * DAY);
  });

  it("Dates select on a numeric coordinate with CF time units (converted by @lance-nd/cf)", async () => {
    const batch = sstBatch().withArrays({
      time: NdArray.from(
        Float64Array.from({ length: 12 }, (_, t) => 0.5 + t),
        { dims: { time: 12 }, attrs: { units: "days since 2000-01-01 00:00:00" } },
      ),
    });
    const ds = await dataset(await writeChunked(uri(), batch, { time: 4 }));
    const got = await ds.sel({ time: [new Date("2000-01-03T00:00Z"), new Date("2000-01-06T00:00Z")] }).read(["time"]);
    expect(Array.from(got.get("time")!.values)).toEqual([2.5, 3.5, 4.5]);
    const one = await ds.sel({ time: new Date("2000-01-08T12:00Z") }).read(["sst"]);
    expect(plain(one)).toEqual(expected(batch.select(["sst"]), { time: [7, 8] }, ["time"]));
  });

  it("sel then isel composes, relative to the selection", async () => {
    const batch = sstBatch();
    const ds = await dataset(await writeChunked(uri(), batch, { lat: 3 }));
    const got = await ds
      .sel({ lat: [30, -30] })
      .isel({ lat: [1, 3] })
      .read(["lat"]);
    expect(Array.from(got.get("lat")!.values)).toEqual([15, 5]);
  });

  it("stats prune the coordinate pieces a range reads; without stats every piece is read", async () => {
    const pruned = await (await writeChunked(uri(), sstBatch(), { lat: 2 })).checkout(1);
    const withStats = countTakes(pruned);
    await (await dataset(pruned)).sel({ lat: [44, 36] }).read(["sst"]);
    expect(withStats.ids).toBe(2); // the lat piece holding 45, 35, then the one sst row
    vi.restoreAllMocks();
    const plainTable = await (await writeChunked(uri(), sstBatch(), { lat: 2 }, false)).checkout(1);
    const without = countTakes(plainTable);
    await (await dataset(plainTable)).sel({ lat: [44, 36] }).read(["sst"]);
    expect(without.ids).toBe(6);
  });
});

describe("dataset: versions", () => {
  it("a view is pinned to its version; refresh() reads the latest", async () => {
    const batch = sstBatch();
    const table = await writeChunked(uri(), batch, { time: 6 });
    const ds = await dataset(table, { where: "__global_attrs__.id = 'sst.nc'" });
    const view = ds.isel({ time: [5, 7] });
    const before = plain(await view.read(["sst"]));
    await table.delete("__global_attrs__.id = 'sst.nc'");
    await append(table, [sstBatch("other.nc")]);
    expect(plain(await view.read(["sst"]))).toEqual(before);
    await expect(view.refresh()).rejects.toSatisfy(
      (err) => isLanceNdError(err, "InvalidInput") && /no row matches/.test(String(err)),
    );
  });

  it("refresh() replays the selection on the latest rows", async () => {
    const table = await writeChunked(uri(), sstBatch(), { time: 6 });
    const ds = (await dataset(table)).isel({ time: 1 });
    await table.delete("__global_attrs__.id = 'sst.nc'");
    await append(table, [sstBatch("sst.nc")]);
    const fresh = await ds.refresh();
    expect(fresh.chunkCount).toBe(1);
    expect(fresh.version).toBeGreaterThan(ds.version);
    expect(plain(await fresh.read(["sst"]))).toEqual(plain(await ds.read(["sst"])));
  });
});

describe("dataset: bad input", () => {
  const code = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      if (isLanceNdError(err)) return `${err.code}: ${err.message}`;
      throw err;
    }
    return "no error";
  };

  it("unknown dims are DimNotFound, unknown variables VariableNotFound, out-of-range indices InvalidInput, naming them (slices are clamped)", async () => {
    const ds = await dataset(await writeChunked(uri(), sstBatch(), { time: 4 }));
    expect(await code(ds.isel({ depth: 1 }).read())).toMatch(
      /DimNotFound: .*isel: "depth" is not a dim.*time \(12\), lat \(10\), lon \(8\)/,
    );
    expect(await code(ds.isel({ time: 12 }).read())).toMatch(
      /InvalidInput: .*isel: index 12 along "time" is out of range for size 12/,
    );
    expect(await code(ds.isel({ time: 1 }).isel({ time: 0 }).read())).toMatch(/DimNotFound: .*"time" was dropped/);
    expect(await code(ds.read(["nope"]))).toMatch(/VariableNotFound: .*dataset: no variable "nope"/);
    expect(() => ds.isel({ time: 1.5 })).toThrow(/isel: "time" is 1.5/);
    expect(() => ds.sel({ lat: "" })).toThrow(/sel: "lat" is , expected a number/);
    expect(await code(ds.sel({ lat: "north" }).read())).toMatch(
      /InvalidInput: .*sel: "lat" is Float64, not a time, so "north" is not one of its values; give a number/,
    );
    expect(() => ds.sel({ lat: 1 }, { tolerance: 2 })).toThrow(/tolerance is a number >= 0 with method "nearest"/);
    expect(() => ds.sel({ lat: 1 }, { method: "linear" as never })).toThrow(/method/);
  });

  it("sel: no exact match on CF times of a noleap calendar shows dates of that calendar", async () => {
    const time = NdArray.from(new Float64Array([0, 31, 59]), {
      dims: { time: 3 },
      attrs: { units: "days since 2000-01-01", calendar: "noleap" },
    });
    const v = NdArray.from(new Float32Array([1, 2, 3]), { dims: { time: 3 } });
    const ds = await dataset(
      await writeChunked(uri(), new NdRecordBatch({ v, time }, { id: "n" }), { time: 1 }, false),
    );
    expect(await code(ds.sel({ time: new Date(Date.UTC(2000, 0, 15)) }).read())).toMatch(
      /no "time" value equals 2000-01-15 00:00:00 \(14\); the selection has values from 2000-01-01 00:00:00 to 2000-03-01 00:00:00/,
    );
  });

  it("sel: no exact match, a range on a non-monotonic coordinate, nearest with a range, a Date on a number are InvalidInput", async () => {
    const batch = sstBatch();
    const shuffled = batch.withArrays({
      lon: NdArray.from(new Float64Array([0, 90, 45, 135, 180, 225, 270, 315]), { dims: { lon: 8 } }),
    });
    const ds = await dataset(await writeChunked(uri(), shuffled, { time: 4 }, false));
    expect(await code(ds.sel({ lat: 12.3 }).read())).toMatch(/no "lat" value equals 12.3.*from -45 to 45/);
    // Times show as dates: a timestamp in ISO 8601, whole seconds without a fraction.
    expect(await code(ds.sel({ time: new Date(T0 + DAY / 2) }).read())).toMatch(
      /no "time" value equals 2000-01-01T12:00:00Z \(946728000000\); the selection has values from 2000-01-01T00:00:00Z to 2000-01-12T00:00:00Z/,
    );
    expect(await code(ds.sel({ lon: [40, 100] }).read())).toMatch(/"lon" is not monotonic/);
    expect(await code(ds.sel({ lon: 40 }, { method: "nearest" }).read(["lon"]))).toBe("no error");
    expect(await code(ds.sel({ lat: [0, 10] }, { method: "nearest" }).read())).toMatch(/nearest" takes single values/);
    expect(await code(ds.sel({ lat: new Date(0) }).read())).toMatch(
      /a Date on "lat" \(Float64, units "degrees_north"\) needs a timestamp/,
    );
    expect(await code(ds.sel({ sst: 1 }).read())).toMatch(/"sst" is not a dim/);
  });

  it("several datasets, a file imported twice (overlap), a read across a gap and differing grids are InvalidInput naming the rows", async () => {
    const table = await writeChunked(uri(), sstBatch("a.nc"), { time: 6 });
    await append(table, [sstBatch("b.nc")]);
    expect(await code(dataset(table))).toMatch(/the rows hold 2 datasets \(ids "a.nc", "b.nc"\)/);

    const twice = await writeChunked(uri(), sstBatch(), { time: 6 });
    await append(twice, [sstBatch()]);
    expect(await code(dataset(twice))).toMatch(
      /rows overlap: _rowid \d+ \(id "sst.nc"\) at offset \[0, 0, 0\] \(size \[12, 10, 8\]\) and _rowid \d+ \(id "sst.nc"\) at offset \[0, 0, 0\] \(size \[6, 10, 8\]\)/,
    );

    // A gap fails only the reads that need its cells, naming them (README "Datasets").
    const gap = await writeChunked(uri(), sstBatch(), { time: 4 });
    await gap.delete("array_element(__global_attrs__.chunk_offset, 1) = 4");
    const holed = await dataset(gap);
    expect(await code(holed.read())).toMatch(
      /no row holds 320 of the 960 cells \[time 0:12, lat 0:10, lon 0:8\] the selection needs \(the first: time 4, lat 0, lon 0\).*import --mode replace/,
    );
    expect(await code(holed.isel({ time: [8, 12] }).read())).toBe("no error");

    const grids = await writeChunked(uri(), sstBatch(), { time: 6 });
    await append(grids, [levelsBatch().withGlobalAttrs({ id: "sst.nc" })]);
    expect(await code(dataset(grids))).toMatch(/InvalidInput: .*dataset: (rows have different grids|variable)/);

    expect(await code(dataset(table, { where: "__global_attrs__.id = 'zzz'" }))).toMatch(/no row matches/);
    expect(await code(dataset(table, { where: "__global_attrs__.nope = 1" }))).toMatch(/InvalidInput/);
    expect(await code(dataset({} as never))).toMatch(/InvalidInput: .*expected an NdTable/);
  });
});
