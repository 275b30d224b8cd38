// Time per chunk of `zarrStore` (codec none and zlib, Zarr v2) against
// lance-nd's own region read of the same rows, `dataset(...).isel(the
// chunk's region).read(["sst"])` (the baseline), and the bytes of a chunk.
// The dataset: ROWS table rows of 1 MiB each, sst(time ROWS, lat 512, lon
// 512) Float32 (a smooth field with noise, 2 decimals), one row per time
// step, so a chunk is one row. Each chunk read once per repetition, the
// median over every chunk of the best of REPS repetitions.
// Run: npm run bench:zarr-store   (ROWS=16, REPS=3)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { dataset } from "../src/dataset/dataset.js";
import { write } from "../src/write/write.js";
import { zarrStore } from "../src/zarr-store/zarr-store.js";

const rows = Number(process.env.ROWS ?? 16);
const reps = Number(process.env.REPS ?? 3);
const [NY, NX] = [512, 512];

function row(t: number): NdRecordBatch {
  const values = new Float32Array(NY * NX);
  let seed = t + 1;
  for (let i = 0; i < values.length; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const [y, x] = [Math.floor(i / NX), i % NX];
    const field = 280 + 20 * Math.sin(y / 40 + t / 5) * Math.cos(x / 60) + (seed / 2147483648 - 0.5);
    values[i] = Math.round(field * 100) / 100;
  }
  return new NdRecordBatch(
    { sst: NdArray.from(values, { dims: { time: 1, lat: NY, lon: NX }, attrs: { units: "K" } }) },
    new Map([
      ["id", attr.utf8("sst.nc")],
      ["chunk_offset", attr.uint32(Uint32Array.from([t, 0, 0]))],
    ]),
  );
}

async function best(work: () => Promise<unknown>): Promise<number> {
  let fastest = Infinity;
  for (let r = 0; r < reps; r++) {
    const start = performance.now();
    await work();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-zarr-store-bench-"));
try {
  const table = await write(
    path.join(dir, "t.lance"),
    Array.from({ length: rows }, (_, t) => row(t)),
  );
  const ds = await dataset(table);
  const stores = { none: await zarrStore(table, { codec: "none" }), zlib: await zarrStore(table, { codec: "zlib" }) };
  for (const store of Object.values(stores)) await store.get("/sst.nc/.zmetadata");
  const baseline: number[] = [];
  const served: Record<string, number[]> = { none: [], zlib: [] };
  const bytes: Record<string, number> = { none: 0, zlib: 0 };
  for (let t = 0; t < rows; t++) {
    baseline.push(await best(() => ds.isel({ time: [t, t + 1] }).read(["sst"])));
    for (const [codec, store] of Object.entries(stores)) {
      served[codec]!.push(await best(() => store.get(`/sst.nc/sst/${t}.0.0`)));
      bytes[codec]! += (await store.get(`/sst.nc/sst/${t}.0.0`))!.byteLength;
    }
  }
  const base = median(baseline);
  console.log(`dataset: ${rows} rows of 1 MiB (sst Float32 ${NY} x ${NX} per row), one chunk a row`);
  console.log(`region read (baseline): ${base.toFixed(1)} ms per chunk`);
  for (const codec of ["none", "zlib"]) {
    const ms = median(served[codec]!);
    const kib = bytes[codec]! / rows / 1024;
    console.log(
      `zarrStore ${codec.padEnd(4)}: ${ms.toFixed(1)} ms per chunk (${(ms / base).toFixed(2)} x the region read), ${kib.toFixed(0)} KiB per chunk`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
