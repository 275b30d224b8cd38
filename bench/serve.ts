/**
 * `lance-nd serve` against its baselines, measured in the same run (CLI
 * README, "serve"), on the benchmark suite's data (bench/ocean-data.ts: sst
 * [time, 180, 360] Float32, 1 MiB chunks of 4 time steps, zstd 3 in the
 * table) made one chunked dataset (`id` ocean, rows placed by their
 * `chunk_offset`) and served as Zarr v2 without compression:
 *
 * 1. xarray reading the whole dataset through the server
 *    (`xr.open_zarr(url, consolidated=True).load()`) against xarray reading
 *    a Zarr v2 store on disk with the same chunks and codec, written by
 *    zarr-python from the served data (bench/serve_xarray.py); target: within 2x.
 * 2. The server's own time per chunk (its `Server-Timing` read duration)
 *    against lance-nd's region read of the same rows in this process
 *    (`dataset(table).isel({ time }).read(["sst"])`); target: within 1.5x.
 *
 *   npx turbo run build --filter=@lance-nd/cli   (the bench runs dist/cli.js)
 *   node --conditions=@lance-nd/source --import tsx bench/serve.ts [MiB] [--reps 3]
 *
 * The table and the store go to a temporary folder, removed at the end. Not part of CI.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { dataset, write } from "lance-nd";
import { datasetRows, writeOptions } from "./lance-nd.js";
import { check, median } from "./measure.js";
import { CHUNK_TIMES, CHUNK_VALUES, LAT, LON, oceanData, sumOf } from "./ocean-data.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, "..", "packages", "cli", "dist", "cli.js");
const SCRIPT = join(HERE, "serve_xarray.py");
const PYTHON = "/usr/bin/python3";
const DATASET = "ocean";
/** Chunks whose server time and region read are compared (spread over the dataset). */
const SAMPLED_CHUNKS = 32;

const { values: options, positionals } = parseArgs({
  options: { reps: { type: "string", default: "3" } },
  allowPositionals: true,
});
const MIB = Number(positionals[0] ?? 256);
const REPS = Number(options.reps);

if (!existsSync(CLI)) {
  console.error(`${CLI} is missing: build the CLI first (npx turbo run build --filter=@lance-nd/cli)`);
  process.exit(1);
}

function python(...args: string[]): string {
  const run = spawnSync(PYTHON, [SCRIPT, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`serve_xarray.py ${args[0]} failed: ${run.error?.message ?? run.stderr}`);
  return run.stdout;
}

const dir = mkdtempSync(join(tmpdir(), "lance-nd-serve-bench-"));
try {
  const data = oceanData(MIB);
  const uri = join(dir, "ocean.lance");
  let started = performance.now();
  const rows = datasetRows(data, DATASET);
  const table = await write(uri, rows, writeOptions("zstd", true));
  console.log(
    `table     one dataset of ${data.chunks} chunks of ${CHUNK_TIMES}x${LAT}x${LON} float32 (${(data.valueBytes / 2 ** 20).toFixed(0)} MiB of sst, zstd 3), written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const child = spawn(process.execPath, [CLI, "serve", uri, "--port", "0", "--json", "--codec", "none"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  try {
    const { url } = JSON.parse(
      await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once("line", resolve)),
    ) as { url: string };
    const group = `${url}${DATASET}`;

    // 1. xarray through the server against xarray on a Zarr v2 store on disk with the same chunks and codec.
    const store = join(dir, "ocean.zarr");
    started = performance.now();
    python("copy", group, store);
    console.log(
      `store     ${store}: written by zarr-python from the served data in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const xarray = JSON.parse(python("time", group, store, String(REPS))) as {
      httpMs: number;
      diskMs: number;
      httpSum: number;
      diskSum: number;
    };
    check("xarray through the server", xarray.httpSum, xarray.diskSum);
    const xarrayRatio = xarray.httpMs / xarray.diskMs;
    console.log(
      `xarray    whole dataset, best of ${REPS}: through the server ${xarray.httpMs.toFixed(0)} ms, Zarr v2 on disk ${xarray.diskMs.toFixed(0)} ms: ${xarrayRatio.toFixed(2)}x (target 2x: ${xarrayRatio <= 2 ? "met" : "MISSED"})`,
    );

    // 2. The server's own time per chunk against the library's region read of the same rows.
    const ds = await dataset(table);
    const serverMs: number[] = [];
    const regionMs: number[] = [];
    for (let s = -2; s < SAMPLED_CHUNKS; s++) {
      const chunk = Math.floor((Math.max(s, 0) * data.chunks) / SAMPLED_CHUNKS);
      const expected = sumOf(data.sst.subarray(chunk * CHUNK_VALUES, (chunk + 1) * CHUNK_VALUES));
      const response = await fetch(`${group}/sst/${chunk}.0.0`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (!response.ok) throw new Error(`chunk ${chunk}: HTTP ${response.status} ${new TextDecoder().decode(bytes)}`);
      check(
        `served chunk ${chunk}`,
        sumOf(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)),
        expected,
      );
      const timing = /\bread;dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "");
      if (timing === null) throw new Error(`chunk ${chunk}: no Server-Timing read duration`);
      started = performance.now();
      const region = await ds.isel({ time: [chunk * CHUNK_TIMES, (chunk + 1) * CHUNK_TIMES] }).read(["sst"]);
      const regionTime = performance.now() - started;
      check(`region read ${chunk}`, sumOf(region.get("sst")!.values.toArray() as Float32Array), expected);
      if (s < 0) continue; // warm-up
      serverMs.push(Number(timing[1]));
      regionMs.push(regionTime);
    }
    const chunkRatio = median(serverMs) / median(regionMs);
    const allChunks = median(serverMs) * data.chunks;
    console.log(
      `context   the server's own time for all ${data.chunks} chunks one at a time: about ${allChunks.toFixed(0)} ms (median x chunks), ${(allChunks / xarray.diskMs).toFixed(1)}x xarray's whole read from disk`,
    );
    console.log(
      `chunk     ${SAMPLED_CHUNKS} chunks: server time (Server-Timing read) median ${median(serverMs).toFixed(1)} ms, region read median ${median(regionMs).toFixed(1)} ms: ${chunkRatio.toFixed(2)}x (target 1.5x: ${chunkRatio <= 1.5 ? "met" : "MISSED"})`,
    );
  } finally {
    child.kill("SIGTERM");
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
