import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Float32 } from "apache-arrow";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { writeNetcdf } from "@lance-nd/netcdf";
import { writeZarr } from "@lance-nd/zarr";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_BLOCK_ROW_BYTES, ROW_BYTES, storageRowSizes } from "@lance-nd/nd-arrow/internal";
import { openSource } from "../../src/commands/import-source.js";

const dir = mkdtempSync(join(tmpdir(), "lance-nd-row-size-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** tas(time, lat, lon) Float32 (ERA5's shape at 0.5°: a time step is 0.99 MiB) with its coordinates. */
function tas(times: number, lat = 361, lon = 720): NdRecordBatch {
  return new NdRecordBatch(
    {
      tas: NdArray.from(
        Float32Array.from({ length: times * lat * lon }, (_, i) => i % 1000),
        {
          dims: { time: times, lat, lon },
          type: new Float32(),
        },
      ),
      time: NdArray.from(
        Float64Array.from({ length: times }, (_, t) => t),
        { dims: { time: times } },
      ),
      lat: NdArray.from(
        Float64Array.from({ length: lat }, (_, y) => 90 - y / 2),
        { dims: { lat } },
      ),
      lon: NdArray.from(
        Float64Array.from({ length: lon }, (_, x) => x / 2),
        { dims: { lon } },
      ),
    },
    { title: "tas" },
  );
}

/** The rows an import of `path` makes without `--chunk`: how many, and the `tas` shape of each. */
async function importRows(path: string): Promise<{ count: number; shapes: string[] }> {
  const source = await openSource(path, "x", "raw", undefined);
  try {
    const shapes: string[] = [];
    for await (const row of source.rows()) shapes.push(row.get("tas")!.shape.join("x"));
    expect(shapes.length).toBe(source.rowCount);
    return { count: source.rowCount, shapes };
  } finally {
    await source.close();
  }
}

describe("import rows follow the source's storage chunks, merged up to 1 MiB", () => {
  it("a netCDF-4 file stored one time step a chunk is one row a step", async () => {
    const path = join(dir, `f${n++}.nc`);
    await writeNetcdf(path, tas(3), { chunks: { time: 1 }, compression: { codec: "deflate", level: 1 } });
    expect(await importRows(path)).toEqual({ count: 3, shapes: ["1x361x720", "1x361x720", "1x361x720"] });
  });

  it("small HDF5 chunks merge along the slowest dims into rows of whole chunks; larger chunks stay whole up to 8 MiB", async () => {
    const small = join(dir, `f${n++}.nc`);
    await writeNetcdf(small, tas(5, 40, 72), { chunks: { time: 1, lat: 10, lon: 72 } });
    // A chunk of 1x10x72 Float32 is 2,880 bytes: 5 steps, then 40 latitudes, make the 57,600-byte file one row.
    expect(await importRows(small)).toEqual({ count: 1, shapes: ["5x40x72"] });
    const two = join(dir, `f${n++}.nc`);
    await writeNetcdf(two, tas(4), { chunks: { time: 2 } });
    expect((await importRows(two)).shapes).toEqual(["2x361x720", "2x361x720"]);
    // A chunk of 12 steps (12.5 MB) is cut into rows of at most 8 MiB: 8 steps, then 4.
    const big = join(dir, `f${n++}.nc`);
    await writeNetcdf(big, tas(12), { chunks: { time: 12 } });
    expect((await importRows(big)).shapes).toEqual(["8x361x720", "4x361x720"]);
    // Contiguous storage is cut into slabs of at most 1 MiB: one step each.
    const contiguous = join(dir, `f${n++}.nc`);
    await writeNetcdf(contiguous, tas(2));
    expect((await importRows(contiguous)).shapes).toEqual(["1x361x720", "1x361x720"]);
  });

  it("a netCDF-3 file (records, no chunks) is one record a row when a record is near 1 MiB", async () => {
    const path = join(dir, `f${n++}.nc`);
    await writeNetcdf(path, tas(3), { format: "classic", unlimited: ["time"] });
    expect(await importRows(path)).toEqual({ count: 3, shapes: ["1x361x720", "1x361x720", "1x361x720"] });
  });

  it("a Zarr store keeps its chunks of about 1 MiB as rows and merges smaller ones", async () => {
    const store = join(dir, `s${n++}.zarr`);
    await writeZarr(store, tas(30, 181, 360), { chunks: { time: 15, lat: 91, lon: 180 } });
    const rows = await importRows(store);
    expect(rows.count).toBe(8);
    expect(rows.shapes[0]).toBe("15x91x180");
    const small = join(dir, `s${n++}.zarr`);
    await writeZarr(small, tas(30, 181, 360), { chunks: { time: 1, lat: 91, lon: 180 } });
    // 1x91x180 Float32 is 65,520 bytes: 16 steps make a row of 1,048,320 bytes.
    expect((await importRows(small)).shapes.slice(0, 2)).toEqual(["16x91x180", "16x91x180"]);
  });

  it("storageRowSizes: small blocks merge within 1 MiB on the grid, larger ones stay whole up to 8 MiB", () => {
    const dims = [
      { name: "time", size: 100 },
      { name: "y", size: 300 },
      { name: "x", size: 500 },
    ];
    expect(storageRowSizes({ dims, itemBytes: 4, block: null })).toEqual({ time: 1, y: 300, x: 500 });
    expect(storageRowSizes({ dims, itemBytes: 8, block: null })).toEqual({ time: 1, y: 262, x: 500 });
    expect(storageRowSizes({ dims, itemBytes: 8, block: [100, 300, 500] })).toEqual({ time: 6, y: 300, x: 500 });
    for (let seed = 1; seed <= 200; seed++) {
      const rand = (k: number) => 1 + ((seed * 2654435761 * (k + 1)) % 997);
      const shape = [rand(1), rand(2), rand(3)];
      const block = shape.map((s, i) => 1 + (rand(i + 7) % s));
      const sizes = Object.values(
        storageRowSizes({ dims: shape.map((size, i) => ({ name: `d${i}`, size })), itemBytes: 4, block }),
      );
      const bytes = sizes.reduce((p, s) => p * s, 4);
      const blockBytes = block.reduce((p, s) => p * s, 4);
      if (blockBytes <= ROW_BYTES) {
        // Merged: within 1 MiB, whole blocks along each dim (or the whole dim).
        expect(bytes <= ROW_BYTES).toBe(true);
        expect(sizes.every((s, i) => s === shape[i] || s % block[i]! === 0)).toBe(true);
      } else if (blockBytes <= MAX_BLOCK_ROW_BYTES) expect(sizes).toEqual(block);
      else expect(bytes <= MAX_BLOCK_ROW_BYTES).toBe(true);
    }
  });
});
