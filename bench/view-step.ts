/**
 * `lance-nd view`: how long a slider step takes, from the page's request to
 * the last byte of its answer (an Arrow IPC window of lat x lon), on the
 * benchmark suite's table (bench/ocean-data.ts: sst [time, 180, 360], one
 * 1 MiB chunk of 4 time steps per row, zstd 3, stats on), its rows made one
 * chunked dataset (one `id`, each row placed by its `chunk_offset`), so a
 * step is a region read of a 259-chunk dataset. The target: within 100 ms,
 * reading one chunk. Baselines measured in the same run, in this process:
 * the library reading that one chunk (`scan` filtered on its
 * `chunk_offset`, summing it) and reading the whole table.
 *
 *   npx --yes pnpm@12.21.0 --filter @lance-nd/cli build
 *   node --conditions=@lance-nd/source --import tsx bench/view-step.ts [MiB]   # from the repository root
 *
 * The table goes to a temporary folder, removed at the end.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { tableFromIPC } from "apache-arrow";
import { CHUNK_OFFSET, decode } from "@lance-nd/nd-arrow";
import { scan, write } from "lance-nd";
import { datasetRows, writeOptions } from "./lance-nd.js";
import { median } from "./measure.js";
import { CHUNK_TIMES, LAT, LON, oceanData } from "./ocean-data.js";

const MIB = Number(process.argv[2] ?? 256);
const STEPS = 48;
const DATASET = "ocean";
const CLI = join(dirname(fileURLToPath(import.meta.url)), "..", "packages", "cli", "dist", "cli.js");

if (!existsSync(CLI) || !existsSync(join(dirname(CLI), "view", "page.js"))) {
  console.error(
    `${CLI} or its page is missing: build the CLI first (npx --yes pnpm@12.21.0 --filter @lance-nd/cli build)`,
  );
  process.exit(1);
}

const quantile = (xs: number[], q: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

const dir = mkdtempSync(join(tmpdir(), "lance-nd-view-bench-"));
try {
  const data = oceanData(MIB);
  const uri = join(dir, "ocean.lance");
  let started = performance.now();
  const rows = datasetRows(data, DATASET);
  const table = await write(uri, rows, writeOptions("zstd", true));
  console.log(
    `table     one dataset of ${data.chunks} chunks of ${CHUNK_TIMES}x${LAT}x${LON} float32 (${(data.valueBytes / 2 ** 20).toFixed(0)} MiB of sst), written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const child = spawn(process.execPath, [CLI, "view", uri, "--port", "0", "--json"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const { port, token } = JSON.parse(
      await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once("line", resolve)),
    ) as { port: number; token: string };
    const get = async (route: string, query: Record<string, string>): Promise<{ ms: number; bytes: Uint8Array }> => {
      const t0 = performance.now();
      const response = await fetch(`http://127.0.0.1:${port}/api/${route}?${new URLSearchParams(query)}`, {
        headers: { "x-lance-nd-token": token },
      });
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (!response.ok) throw new Error(`${route}: HTTP ${response.status} ${new TextDecoder().decode(bytes)}`);
      return { ms: performance.now() - t0, bytes };
    };

    const catalog = await get("table", {});
    const opened = await get("dataset", { dataset: DATASET });
    const coords = await get("coords", { dataset: DATASET, names: "time,lat,lon" });
    console.log(
      `page      table summary (global attributes of every row): ${catalog.ms.toFixed(0)} ms; the dataset's summary (plan, stats, one row): ${opened.ms.toFixed(0)} ms; its coordinates: ${coords.ms.toFixed(0)} ms`,
    );

    // Slider steps: a time step in a chunk in the middle, then the next ones, across chunks.
    const steps: number[] = [];
    const first = Math.floor(data.chunks / 2) - STEPS / (2 * CHUNK_TIMES);
    for (let s = -2; s < STEPS; s++) {
      const t = Math.max(0, first * CHUNK_TIMES + s);
      const step = await get("window", { dataset: DATASET, variable: "sst", isel: `time=${t}` });
      if (s < 0) continue; // warm-up
      steps.push(step.ms);
      const [window] = tableFromIPC(step.bytes).batches.flatMap((rb) => decode(rb));
      const values = window!.get("sst")!.toArray() as Float64Array;
      const expected = data.sst.subarray(t * LAT * LON, (t + 1) * LAT * LON);
      if (
        values.length !== expected.length ||
        values[12345] !== expected[12345] ||
        values[values.length - 1] !== expected[expected.length - 1]
      ) {
        throw new Error(`window of time ${t} differs from the data`);
      }
    }

    // Baselines: the library reading one chunk by its chunk_offset (summing it), and the whole table.
    const oneChunk: number[] = [];
    for (let s = 0; s < 16; s++) {
      started = performance.now();
      const start = (first + (s % 8)) * CHUNK_TIMES;
      const [row] = await scan(table)
        .project(["sst"])
        .filter(`__global_attrs__.${CHUNK_OFFSET}[1] = ${start}`)
        .toArray();
      let sum = 0;
      for (const v of row!.get("sst")!.toArray() as Float32Array) sum += v;
      if (!Number.isFinite(sum)) throw new Error("bad chunk");
      oneChunk.push(performance.now() - started);
    }
    started = performance.now();
    let read = 0;
    for await (const _row of scan(table).project(["sst"])) read++;
    const whole = performance.now() - started;

    const step = median(steps);
    console.log(
      `step      request to answer, ${steps.length} steps: median ${step.toFixed(1)} ms, p90 ${quantile(steps, 0.9).toFixed(1)} ms, max ${Math.max(...steps).toFixed(1)} ms (target 100 ms: ${step <= 100 ? "met" : "MISSED"})`,
    );
    console.log(
      `baseline  library, one chunk by chunk_offset: median ${median(oneChunk).toFixed(1)} ms; whole table (${read} rows of sst): ${whole.toFixed(0)} ms`,
    );
    console.log(
      `ratios    step / one-chunk read = ${(step / median(oneChunk)).toFixed(2)}x; step / whole-table read = ${(step / whole).toFixed(3)}x (one chunk of ${data.chunks})`,
    );
  } finally {
    child.kill("SIGTERM");
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
