/**
 * `zarrStore`'s chunk grid, pinning and keys, on tables written with
 * lance-nd's `write`: rows on one regular grid are the chunks; rows off it
 * (seeded random layouts, bricks) are served on a regular grid where no
 * chunk meets more than `maxChunkRows` rows, and zarrita reads every value
 * as written; a store serves the version it was opened on (a tag through
 * `checkout`, a branch through `open`); keys the store does not hold, and
 * chunks no row holding the variable covers, are absent.
 */
import { Float64, Int32 } from "apache-arrow";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { failure, seededRandom } from "@lance-nd/test-helpers";
import * as zarr from "zarrita";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { append, branch, checkout, isLanceNdError, open, tag, write, zarrStore } from "../../src/index.js";
import type { ZarrStore } from "../../src/index.js";

/** A row's box on the grid: start and size along (time, x). */
interface Box {
  start: [number, number];
  size: [number, number];
}

/** The value of v at (t, x): distinct everywhere, so a misplaced cell shows. */
const value = (t: number, x: number, base: number) => base + 1000 * t + x;

/** A row of dataset `id` holding v(time, x) and x(x) over `box`. */
function row(id: string | undefined, box: Box, base = 0): NdRecordBatch {
  const [t0, x0] = box.start;
  const [nt, nx] = box.size;
  const v = Float64Array.from({ length: nt * nx }, (_, i) => value(t0 + Math.floor(i / nx), x0 + (i % nx), base));
  const globals = new Map([["chunk_offset", attr.uint32(Uint32Array.from(box.start))]]);
  if (id !== undefined) globals.set("id", attr.utf8(id));
  return new NdRecordBatch(
    {
      v: NdArray.from(v, { dims: { time: nt, x: nx }, type: new Float64(), attrs: { units: "K" } }),
      x: NdArray.from(
        Int32Array.from({ length: nx }, (_, i) => 10 * (x0 + i)),
        { dims: { x: nx }, type: new Int32() },
      ),
    },
    globals,
  );
}

/** Bricks over (nt, nx): time cut into bands of random heights, each band cut along x at its own random places. */
function bricks(seed: number, nt: number, nx: number): Box[] {
  const next = seededRandom(seed);
  const boxes: Box[] = [];
  for (let t = 0; t < nt; ) {
    const height = Math.min(nt - t, 1 + Math.floor(next() * 5));
    for (let x = 0; x < nx; ) {
      const width = Math.min(nx - x, 1 + Math.floor(next() * 7));
      boxes.push({ start: [t, x], size: [height, width] });
      x += width;
    }
    t += height;
  }
  return boxes;
}

function tempTable(name: string): string {
  return join(mkdtempSync(join(tmpdir(), "lance-nd-zarr-store-")), name);
}

function json(bytes: Uint8Array | undefined): Record<string, unknown> {
  expect(bytes).toBeDefined();
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
}

/** v and x of dataset `id` as zarrita reads them over `store`. */
async function readAll(store: ZarrStore, id: string): Promise<{ v: number[]; x: number[]; shape: number[] }> {
  const group = zarr.root(store).resolve(encodeURIComponent(id));
  const v = await zarr.get(await zarr.open(group.resolve("v"), { kind: "array" }));
  const x = await zarr.get(await zarr.open(group.resolve("x"), { kind: "array" }));
  return { v: Array.from(v.data as Float64Array), x: Array.from(x.data as Int32Array), shape: v.shape };
}

/** The rows whose boxes meet the chunk box along `dims`, counted once per distinct start along them. */
function rowsMeeting(boxes: readonly Box[], start: number[], size: number[], dims: number[]): number {
  const starts = new Set<string>();
  for (const box of boxes) {
    if (dims.every((d) => box.start[d]! < start[d]! + size[d]! && start[d]! < box.start[d]! + box.size[d]!))
      starts.add(dims.map((d) => box.start[d]).join(","));
  }
  return starts.size;
}

describe("zarrStore chunk grid", () => {
  it("rows on one regular grid are the chunks, one row a chunk, in v2 and v3", async () => {
    const boxes: Box[] = [];
    for (let t = 0; t < 7; t += 3)
      for (let x = 0; x < 10; x += 4) boxes.push({ start: [t, x], size: [Math.min(3, 7 - t), Math.min(4, 10 - x)] });
    const table = await write(
      tempTable("regular.lance"),
      boxes.map((box) => row("grid.nc", box)),
    );
    const v2 = await zarrStore(table, { maxChunkRows: 1 });
    expect(json(await v2.get("/grid.nc/v/.zarray")).chunks).toEqual([3, 4]);
    expect(json(await v2.get("/grid.nc/x/.zarray")).chunks).toEqual([4]);
    const v3 = await zarrStore(table, { zarrVersion: 3, codec: "zlib" });
    expect((json(await v3.get("/grid.nc/v/zarr.json")).chunk_grid as { configuration: unknown }).configuration).toEqual(
      {
        chunk_shape: [3, 4],
      },
    );
    for (const store of [v2, v3]) {
      const { v, x, shape } = await readAll(store, "grid.nc");
      expect(shape).toEqual([7, 10]);
      expect(v).toEqual(Array.from({ length: 70 }, (_, i) => value(Math.floor(i / 10), i % 10, 0)));
      expect(x).toEqual(Array.from({ length: 10 }, (_, i) => 10 * i));
    }
  });

  it("rows of month lengths keep chunks of the most common one (31 days) under the default bound", async () => {
    const months = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    const starts = months.map((_, m) => months.slice(0, m).reduce((a, b) => a + b, 0));
    const table = await write(
      tempTable("months.lance"),
      months.map((days, m) => row("year.nc", { start: [starts[m]!, 0], size: [days, 2] })),
    );
    const store = await zarrStore(table);
    expect(json(await store.get("/year.nc/v/.zarray"))).toMatchObject({ shape: [365, 2], chunks: [31, 2] });
    const { v } = await readAll(store, "year.nc");
    expect(v).toEqual(Array.from({ length: 730 }, (_, i) => value(Math.floor(i / 2), i % 2, 0)));
  });

  it("rows off one grid (seeded bricks): no chunk meets more than maxChunkRows rows, every value as written", async () => {
    for (let seed = 1; seed <= 4; seed++) {
      const [nt, nx] = [9 + seed, 11 + 2 * seed];
      const boxes = bricks(seed, nt, nx);
      const table = await write(
        tempTable(`bricks-${seed}.lance`),
        boxes.map((box) => row("bricks.nc", box, seed)),
      );
      for (const maxChunkRows of [1, 2, 4]) {
        const store = await zarrStore(table, { maxChunkRows, codec: seed % 2 === 0 ? "zlib" : "none" });
        const { v, x, shape } = await readAll(store, "bricks.nc");
        expect(shape, `seed ${seed}`).toEqual([nt, nx]);
        expect(v, `seed ${seed}`).toEqual(
          Array.from({ length: nt * nx }, (_, i) => value(Math.floor(i / nx), i % nx, seed)),
        );
        expect(x).toEqual(Array.from({ length: nx }, (_, i) => 10 * i));
        const [ct, cx] = json(await store.get("/bricks.nc/v/.zarray")).chunks as [number, number];
        for (let t = 0; t < nt; t += ct) {
          for (let x0 = 0; x0 < nx; x0 += cx) {
            const met = rowsMeeting(boxes, [t, x0], [ct, cx], [0, 1]);
            expect(met, `seed ${seed}, maxChunkRows ${maxChunkRows}, chunk at [${t}, ${x0}]`).toBeLessThanOrEqual(
              maxChunkRows,
            );
          }
        }
        // x(x) is read from the rows of distinct x starts: at most maxChunkRows, unless the chunk is one cell.
        const [xc] = json(await store.get("/bricks.nc/x/.zarray")).chunks as [number];
        for (let x0 = 0; x0 < nx; x0 += xc) {
          if (xc > 1)
            expect(rowsMeeting(boxes, [0, x0], [nt, xc], [1]), `seed ${seed}, x chunk at ${x0}`).toBeLessThanOrEqual(
              maxChunkRows,
            );
        }
      }
    }
  });
});

describe("zarrStore versions and keys", () => {
  it("serves the version it was opened on: a tag through checkout, the latest after a write, a store kept across a write", async () => {
    const boxes: Box[] = [
      { start: [0, 0], size: [2, 3] },
      { start: [2, 0], size: [2, 3] },
    ];
    const uri = tempTable("versions.lance");
    const first = await write(
      uri,
      boxes.map((box) => row("sst.nc", box, 0)),
    );
    const firstVersion = await first.version();
    await tag(first, "first");
    const before = await zarrStore(first);
    const latest = await write(
      uri,
      boxes.map((box) => row("sst.nc", box, 0.5)),
      { mode: "overwrite" },
    );
    const expected = (base: number) => Array.from({ length: 12 }, (_, i) => value(Math.floor(i / 3), i % 3, base));
    const tagged = await zarrStore(await checkout(await open(uri), "first"));
    expect(tagged.version).toBe(firstVersion);
    expect((await readAll(tagged, "sst.nc")).v).toEqual(expected(0));
    expect(before.version).toBe(firstVersion);
    expect((await readAll(before, "sst.nc")).v).toEqual(expected(0));
    const now = await zarrStore(latest);
    expect(now.version).toBeGreaterThan(firstVersion);
    expect((await readAll(now, "sst.nc")).v).toEqual(expected(0.5));
  });

  it("a store on a branch handle serves the branch; main's store does not see it", async () => {
    const box: Box = { start: [0, 0], size: [2, 3] };
    const uri = tempTable("branches.lance");
    const main = await write(uri, [row("sst.nc", box)]);
    await append(await branch(main, "dev"), [row("dev.nc", box, 3)]);
    const onDev = await zarrStore(await open(uri, { branch: "dev" }));
    expect(await onDev.datasets()).toEqual(["sst.nc", "dev.nc"]);
    expect((await readAll(onDev, "dev.nc")).v[0]).toBe(value(0, 0, 3));
    const onMain = await zarrStore(await open(uri));
    expect(await onMain.datasets()).toEqual(["sst.nc"]);
    expect(await onMain.get("/dev.nc/.zgroup")).toBeUndefined();
  });

  it("datasets are groups by percent-encoded id; rows without an id are the dataset _", async () => {
    const box: Box = { start: [0, 0], size: [2, 3] };
    const named = await write(tempTable("ids.lance"), [row("a b/c.nc", box), row("plain.nc", box, 1)]);
    const store = await zarrStore(named);
    expect(await store.datasets()).toEqual(["a b/c.nc", "plain.nc"]);
    expect(json(await store.get("/a%20b%2Fc.nc/.zgroup"))).toEqual({ zarr_format: 2 });
    expect((await readAll(store, "plain.nc")).v[4]).toBe(value(1, 1, 1));
    const anonymous = await zarrStore(await write(tempTable("no-id.lance"), [row(undefined, box, 2)]));
    expect(await anonymous.datasets()).toEqual(["_"]);
    expect((await readAll(anonymous, "_")).v).toEqual(
      Array.from({ length: 6 }, (_, i) => value(Math.floor(i / 3), i % 3, 2)),
    );
  });

  it("a chunk no row holding the variable covers is absent: zarrita reads the fill value there", async () => {
    // w only in the rows at time 2 and 4 (not in the first row on the grid), with _FillValue -1.
    const rows = [0, 2, 4].map((t) => {
      const base = row("partial.nc", { start: [t, 0], size: [2, 3] });
      if (t === 0) return base;
      const w = NdArray.from(new Float64Array(6).fill(t), {
        dims: { time: 2, x: 3 },
        type: new Float64(),
        attrs: { _FillValue: -1 },
      });
      return base.withArrays([...base.arrays(), ["w", w]]);
    });
    const store = await zarrStore(await write(tempTable("partial.lance"), rows));
    expect(json(await store.get("/partial.nc/w/.zarray"))).toMatchObject({
      chunks: [2, 3],
      shape: [6, 3],
      fill_value: -1,
    });
    expect(await store.get("/partial.nc/w/0.0")).toBeUndefined();
    expect(await store.get("/partial.nc/w/1.0")).toBeDefined();
    const w = await zarr.get(await zarr.open(zarr.root(store).resolve("partial.nc/w"), { kind: "array" }));
    expect(Array.from(w.data as Float64Array)).toEqual([
      ...new Array(6).fill(-1),
      ...new Array(6).fill(2),
      ...new Array(6).fill(4),
    ]);
  });

  it("keys the store does not hold are absent: past the grid, wrong rank, unknown names, '..', malformed", async () => {
    const boxes: Box[] = [
      { start: [0, 0], size: [2, 3] },
      { start: [2, 0], size: [2, 3] },
    ];
    const table = await write(
      tempTable("keys.lance"),
      boxes.map((box) => row("k.nc", box)),
    );
    const v2 = await zarrStore(table);
    const v3 = await zarrStore(table, { zarrVersion: 3 });
    expect(await v2.get("/k.nc/v/1.0")).toBeDefined();
    expect(await v3.get("/k.nc/v/c/1/0")).toBeDefined();
    for (const key of [
      "/k.nc/v/2.0",
      "/k.nc/v/0.1",
      "/k.nc/v/0",
      "/k.nc/v/0.0.0",
      "/k.nc/v/-1.0",
      "/k.nc/v/01.0",
      "/k.nc/v/1e0.0",
      "/k.nc/v/99999999999999999999.0",
      "/k.nc/v/c/0/0",
      "/k.nc/nope/.zarray",
      "/k.nc/nope/0",
      "/k.nc/../k.nc/.zgroup",
      "/k.nc/v/../.zgroup",
      "/k.nc//.zgroup",
      "/other.nc/.zgroup",
      "/k.nc/zarr.json",
      "k.nc/.zgroup",
      "",
    ]) {
      expect(await v2.get(key), key).toBeUndefined();
    }
    for (const key of ["/k.nc/v/c/2/0", "/k.nc/v/c/0", "/k.nc/v/0.0", "/k.nc/.zmetadata", "/k.nc/v/c/0/0/0"]) {
      expect(await v3.get(key), key).toBeUndefined();
    }
  });

  it("bad options are InvalidInput naming the option", async () => {
    const table = await write(tempTable("options.lance"), [row("o.nc", { start: [0, 0], size: [1, 1] })]);
    for (const [options, named] of [
      [{ zarrVersion: 4 }, "zarrVersion"],
      [{ codec: "zstd" }, "codec"],
      [{ maxChunkRows: 0 }, "maxChunkRows"],
      [{ maxChunkRows: 1.5 }, "maxChunkRows"],
      [{ chunks: 2 }, "chunks"],
    ] as const) {
      const err = await failure(zarrStore(table, options as never));
      expect(isLanceNdError(err, "InvalidInput"), String(err)).toBe(true);
      expect((err as Error).message).toContain(named);
    }
  });
});

describe("zarrStore value types", () => {
  it("a scalar, booleans and UTF-8 strings read back through zarrita in v2 and v3", async () => {
    const batch = new NdRecordBatch(
      {
        s: NdArray.from(new Float64Array([42]), { dims: {} }),
        flag: NdArray.from([true, false, true], { dims: { x: 3 } }),
        name: NdArray.from(["a", "bé", "ç€"], { dims: { x: 3 } }),
      },
      { id: "types.nc" },
    );
    const table = await write(tempTable("types.lance"), [batch]);
    for (const zarrVersion of [2, 3] as const) {
      const store = await zarrStore(table, { zarrVersion, codec: "zlib" });
      const read = async (name: string) =>
        zarr.get(await zarr.open(zarr.root(store).resolve(`types.nc/${name}`), { kind: "array" }));
      expect(await read("s"), `v${zarrVersion}`).toBe(42);
      expect(Array.from((await read("flag")).data as Iterable<boolean>)).toEqual([true, false, true]);
      expect(Array.from((await read("name")).data as Iterable<string>)).toEqual(["a", "bé", "ç€"]);
      expect(await store.get(`/types.nc/s/${zarrVersion === 2 ? "0" : "c"}`)).toBeDefined();
    }
  });
});
