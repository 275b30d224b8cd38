/**
 * The SDK takes a region read makes (SDK-NOTES.md, section 26): one call
 * when the coordinates' rows are among the data variable's rows, on a
 * regular layout and on rows cut at different places; a take of its own
 * for a big variable that only one of the rows is read for. The values
 * equal the source's either way. Real tables written with lance-nd's `write`.
 */
import { Float64 } from "apache-arrow";
import { CHUNK_OFFSET, NdArray, NdRecordBatch, attr, chunk, slice } from "@lance-nd/nd-arrow";
import { afterEach, describe, expect, it, vi } from "vitest";
import { dataset } from "../../src/dataset/dataset.js";
import { write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";
import { recordReads, sstBatch, writeChunked } from "./fixture.js";

const dir = tempDir("dataset-takes");
let n = 0;
const uri = () => `${dir}/t${n++}.lance`;

afterEach(() => vi.restoreAllMocks());

/** Arrays as `{ name: [dim sizes, values] }`, for `toEqual`. */
function plain(batch: NdRecordBatch): Record<string, [number[], unknown[]]> {
  return Object.fromEntries(
    batch.arrays().map(([name, a]) => [name, [a.shape, Array.from(a.values as Iterable<unknown>)]]),
  );
}

/** The takes `reads` recorded, their columns in name order (the order a take selects them in is its own). */
function takes(reads: ReturnType<typeof recordReads>): { columns: string[]; rows: number }[] {
  return reads.takes.map(({ columns, rows }) => ({ columns: [...columns].sort(), rows }));
}

/** The row of `batch` over the box `window` (every array cut on the dims it has), placed by `chunk_offset`. */
function boxRow(batch: NdRecordBatch, window: Readonly<Record<string, readonly [number, number]>>): NdRecordBatch {
  const arrays = batch.arrays().map(([name, a]) => {
    const own = Object.fromEntries(Object.entries(window).filter(([dim]) => a.dimNames.includes(dim)));
    return [name, slice(a, own)] as const;
  });
  const start = batch.grid().map((d) => window[d.name]?.[0] ?? 0);
  return new NdRecordBatch(
    arrays,
    new Map([...batch.globalAttrs, [CHUNK_OFFSET, attr.uint32(Uint32Array.from(start))]]),
  );
}

describe("dataset read: SDK takes", () => {
  it("a regular layout: the rows are taken in one call with every variable, whole or windowed", async () => {
    const batch = sstBatch();
    const table = await writeChunked(uri(), batch, { time: 4, lat: 5 });
    const view = await table.checkout(await table.version());
    const ds = await dataset(view);
    const reads = recordReads(view);
    expect(plain(await ds.read())).toEqual(plain(batch));
    await ds.isel({ time: [3, 5], lat: [4, 6] }).read();
    expect(takes(reads)).toEqual([
      { columns: ["lat", "lon", "sst", "time"], rows: 6 },
      { columns: ["lat", "lon", "sst", "time"], rows: 4 },
    ]);
  });

  it("rows cut at different places along time in each lat band: one call, the cells of the source", async () => {
    const batch = sstBatch();
    const boxes: Record<string, [number, number]>[] = [
      { time: [0, 4], lat: [0, 5] },
      { time: [4, 8], lat: [0, 5] },
      { time: [8, 12], lat: [0, 5] },
      { time: [0, 6], lat: [5, 10] },
      { time: [6, 12], lat: [5, 10] },
    ];
    const table = await write(
      uri(),
      boxes.map((box) => boxRow(batch, box)),
    );
    const view = await table.checkout(await table.version());
    const ds = await dataset(view);
    const reads = recordReads(view);
    expect(plain(await ds.read())).toEqual(plain(batch));
    const window = { time: [5, 9], lat: [3, 7] } as const;
    expect(plain(await ds.isel(window).read())).toEqual(
      plain(boxRow(batch, window).withGlobalAttrs(batch.globalAttrs)),
    );
    expect(takes(reads)).toEqual([
      { columns: ["lat", "lon", "sst", "time"], rows: 5 },
      { columns: ["lat", "lon", "sst", "time"], rows: 4 },
    ]);
  });

  it("a field without the time dim, as big as a time step: taken from one row in a call of its own", async () => {
    const [nt, ny, nx] = [4, 3, 4];
    const batch = new NdRecordBatch(
      {
        v: NdArray.from(
          Float64Array.from({ length: nt * ny * nx }, (_, i) => i),
          { dims: { time: nt, y: ny, x: nx }, type: new Float64() },
        ),
        topo: NdArray.from(
          Float64Array.from({ length: ny * nx }, (_, i) => -i),
          { dims: { y: ny, x: nx }, type: new Float64() },
        ),
      },
      { id: "topo.nc" },
    );
    const table = await write(uri(), chunk(batch, { time: 1 }));
    const view = await table.checkout(await table.version());
    const ds = await dataset(view);
    const reads = recordReads(view);
    expect(plain(await ds.read())).toEqual(plain(batch));
    expect(takes(reads).sort((a, b) => a.rows - b.rows)).toEqual([
      { columns: ["topo", "v"], rows: 1 },
      { columns: ["v"], rows: 3 },
    ]);
    reads.takes.length = 0;
    await ds.isel({ time: 2 }).read();
    expect(takes(reads)).toEqual([{ columns: ["topo", "v"], rows: 1 }]);
  });
});
