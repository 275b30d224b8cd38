/**
 * Benchmark (a script, not a test): the bench's 256 MiB ocean store, written
 * by bench/zarrita.ts (Zarr v3, zstd level 3, sst chunks of 4 x 180 x 360),
 * opened and read whole with openZarr against zarrita directly, in the same
 * run. Prints the best of several rounds, the ratios, and each reader's peak
 * memory (JS heap + array buffers above the level before it started; run
 * with `node --expose-gc` for a collected baseline).
 *
 * Run: npx --yes pnpm@12.21.0 --filter @lance-nd/zarr bench [MiB] (default 256)
 * (from the repository root; the store is written to a temp dir and removed).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { openZarr } from "../src/index.js";

/** The shared bench modules, loaded by path (they live outside this package). */
interface OceanModule {
  oceanData(mib: number): { chunks: number; times: number; chunkSum: Float64Array };
  sumOf(values: Float32Array | Float64Array): number;
  CHUNK_TIMES: number;
}
interface ZarritaModule {
  zarrita: { prepare(data: unknown, codec: "zstd", stats: boolean): Promise<(dir: string) => Promise<unknown>> };
}
const benchDir = new URL("../../../bench/", import.meta.url);
const ocean = (await import(new URL("ocean-data.ts", benchDir).href)) as OceanModule;
const { zarrita } = (await import(new URL("zarrita.ts", benchDir).href)) as ZarritaModule;

const mib = Number(process.argv[2] ?? 256);
const ROUNDS = 3;

/** Wall time and the peak memory (JS heap + array buffers, over the level before) while `run` runs. */
async function measure<T>(run: () => Promise<T>): Promise<{ ms: number; peakMiB: number; result: T }> {
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  global.gc?.();
  const before = used();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, used())), 2);
  const start = performance.now();
  try {
    const result = await run();
    return { ms: performance.now() - start, peakMiB: (Math.max(peak, used()) - before) / 2 ** 20, result };
  } finally {
    clearInterval(timer);
  }
}

/** zarrita as its users write it: open the arrays, get each sst chunk (and the time slice) in turn. */
async function readWithZarrita(dir: string, times: number): Promise<number> {
  const root = zarr.root(new FileSystemStore(dir));
  const [sst, time] = await Promise.all([
    zarr.open(root.resolve("sst"), { kind: "array" }),
    zarr.open(root.resolve("time"), { kind: "array" }),
  ]);
  await Promise.all(
    ["lat", "lon"].map(async (name) => zarr.get(await zarr.open(root.resolve(name), { kind: "array" }))),
  );
  let sum = 0;
  for (let t = 0; t < times; t += ocean.CHUNK_TIMES) {
    const selection = zarr.slice(t, t + ocean.CHUNK_TIMES);
    const [chunk] = await Promise.all([zarr.get(sst, [selection, null, null]), zarr.get(time, [selection])]);
    sum += ocean.sumOf(chunk.data as Float32Array);
  }
  return sum;
}

/** openZarr's rows (every variable, chunk_offset), on the storage grid or `sizes`. */
async function readWithOpenZarr(dir: string, sizes?: Record<string, number>): Promise<number> {
  const store = await openZarr(dir);
  let sum = 0;
  for await (const row of store.chunks(sizes)) sum += ocean.sumOf(row.get("sst")!.toArray() as Float32Array);
  return sum;
}

/** `run` `n` times in turn, its results. */
async function sequential<T>(n: number, run: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(await run());
  return out;
}

const dir = mkdtempSync(join(tmpdir(), "lance-nd-zarr-bench-"));
try {
  const store = join(dir, "ocean.zarr");
  // The generated values are dropped once written: peak RSS is the readers'.
  const { want, chunks, times } = await (async () => {
    const data = ocean.oceanData(mib);
    await (await zarrita.prepare(data, "zstd", false))(store);
    return { want: data.chunkSum.reduce((a, b) => a + b, 0), chunks: data.chunks, times: data.times };
  })();
  const contestants: [string, () => Promise<number>][] = [
    ["zarrita zarr.get per chunk", () => readWithZarrita(store, times)],
    ["openZarr chunks() (storage grid)", () => readWithOpenZarr(store)],
    ["openZarr chunks({ time: 4 })", () => readWithOpenZarr(store, { time: ocean.CHUNK_TIMES })],
  ];
  const best = new Map<string, { ms: number; peakMiB: number }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of round % 2 === 0 ? contestants : [...contestants].reverse()) {
      const { ms, peakMiB, result } = await measure(run);
      if (Math.abs(result - want) > 1e-6 * Math.abs(want)) throw new Error(`${name}: sum ${result}, expected ${want}`);
      const seen = best.get(name);
      best.set(name, { ms: Math.min(ms, seen?.ms ?? Infinity), peakMiB: Math.max(peakMiB, seen?.peakMiB ?? 0) });
    }
  }
  const bestOf = async (run: () => Promise<unknown>) =>
    Math.min(...(await sequential(5, async () => (await measure(run)).ms)));
  const open = { ms: await bestOf(() => openZarr(store)) };
  const openZarrita = {
    ms: await bestOf(async () => {
      const root = zarr.root(new FileSystemStore(store));
      await zarr.open(root, { kind: "group" });
      return Promise.all(["sst", "lat", "lon", "time"].map((name) => zarr.open(root.resolve(name), { kind: "array" })));
    }),
  };
  const baseline = best.get(contestants[0]![0])!.ms;
  console.log(`store: ${chunks} sst chunks, ${mib} MiB of values, zstd; best of ${ROUNDS} rounds`);
  for (const [name, { ms, peakMiB }] of best) {
    console.log(
      `${name.padEnd(36)} ${ms.toFixed(0).padStart(7)} ms  ${(ms / baseline).toFixed(2)}x  peak memory +${peakMiB.toFixed(0)} MiB`,
    );
  }
  console.log(
    `open (best of 5): openZarr ${open.ms.toFixed(1)} ms, zarrita group + 4 arrays ${openZarrita.ms.toFixed(1)} ms (${(open.ms / openZarrita.ms).toFixed(2)}x)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
