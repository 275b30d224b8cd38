/**
 * Benchmark of `lance-nd import` of a Zarr store (a script, not a timed
 * test), against a baseline measured in the same run:
 *
 * - the store: the bench's ocean data (bench/ocean-data.ts), 256 MiB of
 *   `sst` by default, written by bench/zarrita.ts (Zarr v3, zstd level 3,
 *   `sst` chunks of 4 x 180 x 360 = 1 MiB) into a temp dir;
 * - the baseline: zarrita reads each `sst` chunk (and its `time` slice) and
 *   lance-nd's NdWriter writes it as one row, with the write options
 *   `import` uses (stats on, `IMPORT_WRITE_SIZING`: two adds of about a row
 *   in flight), in a child process (this script again, `--baseline`) under
 *   GNU time for its peak RSS, timed inside (after loading its modules, so
 *   without the cost of tsx), with the MALLOC_ARENA_MAX the CLI's import
 *   sets for itself (so the ratio compares the code, not the allocator);
 * - the CLI: `lance-nd import <store> <table> --cf raw --chunk time=4` (the
 *   same rows), then `lance-nd import` with its defaults (`--cf mask`, rows
 *   on the store's grid: 1 MiB chunks merge into 8 MiB rows), each a child
 *   process under GNU time for its peak RSS (of its largest process: the
 *   import, not the 44 MiB wrapper that runs it again with
 *   MALLOC_ARENA_MAX), timed with its process start (so the ratios are, if
 *   anything, unfair to the CLI).
 *
 * Goals: import / baseline <= 1.3x, peak RSS < 512 MiB.
 *
 *   node --conditions=@lance-nd/source --import tsx packages/cli/scripts/bench-zarr-import.ts [MiB]
 *
 * (from the repository root; builds the CLI first; needs /usr/bin/time.)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { NdWriter } from "lance-nd";
import { IMPORT_WRITE_SIZING } from "../src/commands/import-rows.js";
import { ARENA_LIMIT, ARENA_VARIABLE } from "../src/malloc-arenas.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, "..", "dist", "cli.js");
const MIB = Number(process.argv[2] ?? 256);
const SELF = fileURLToPath(import.meta.url);

/** The shared bench modules, loaded by path (they live outside this package). */
interface OceanModule {
  oceanData(mib: number): { chunks: number; times: number };
  CHUNK_TIMES: number;
}
interface ZarritaModule {
  zarrita: { prepare(data: unknown, codec: "zstd", stats: boolean): Promise<(dir: string) => Promise<unknown>> };
}
const benchDir = new URL("../../../bench/", import.meta.url);
const ocean = (await import(new URL("ocean-data.ts", benchDir).href)) as OceanModule;
const { zarrita } = (await import(new URL("zarrita.ts", benchDir).href)) as ZarritaModule;

function run(command: string, args: string[], env = process.env): { stdout: string; stderr: string } {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 2 ** 20, env });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed: ${result.error?.message ?? result.stderr}`);
  return { stdout: result.stdout, stderr: result.stderr };
}

/** zarrita reads each chunk; NdWriter writes it as a row, as `import` configures its writer. */
async function baseline(store: string, table: string, times: number): Promise<void> {
  const root = zarr.root(new FileSystemStore(store));
  const open = (name: string) => zarr.open(root.resolve(name), { kind: "array" });
  const [sst, time, lat, lon] = await Promise.all(["sst", "time", "lat", "lon"].map(open));
  const [latValues, lonValues] = await Promise.all([zarr.get(lat!), zarr.get(lon!)]);
  const coords = {
    lat: NdArray.from(latValues.data as Float32Array, {
      dims: { lat: latValues.shape[0]! },
      attrs: lat!.attrs as Record<string, string>,
    }),
    lon: NdArray.from(lonValues.data as Float32Array, {
      dims: { lon: lonValues.shape[0]! },
      attrs: lon!.attrs as Record<string, string>,
    }),
  };
  const writer = await NdWriter.create(table, { mode: "create", stats: true, ...IMPORT_WRITE_SIZING });
  for (let t = 0; t < times; t += ocean.CHUNK_TIMES) {
    const selection = zarr.slice(t, Math.min(times, t + ocean.CHUNK_TIMES));
    const [chunk, steps] = await Promise.all([zarr.get(sst!, [selection, null, null]), zarr.get(time!, [selection])]);
    const [n, ny, nx] = chunk.shape as [number, number, number];
    const row = new NdRecordBatch(
      {
        sst: NdArray.from(chunk.data as Float32Array, {
          dims: { time: n, lat: ny, lon: nx },
          attrs: sst!.attrs as Record<string, string>,
        }),
        time: NdArray.from(steps.data as Float64Array, {
          dims: { time: n },
          attrs: time!.attrs as Record<string, string>,
        }),
        ...coords,
      },
      { id: "ocean.zarr", chunk_offset: [t, 0, 0] },
    );
    await writer.write(row);
  }
  await writer.finish();
}

/** A node process under GNU time: wall seconds, peak RSS (MiB) and its stdout. */
function timedNode(args: string[], env = process.env): { seconds: number; peakMiB: number; stdout: string } {
  const started = performance.now();
  const timed = run("/usr/bin/time", ["-f", "%M", process.execPath, ...args], env);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, peakMiB: Number(timed.stderr.trim().split("\n").at(-1)) / 1024, stdout: timed.stdout };
}

/** `lance-nd import` of `store`: seconds, peak RSS and rows. */
function cliImport(store: string, table: string, args: string[]): { seconds: number; peakMiB: number; rows: number } {
  const timed = timedNode([CLI, "import", store, table, "--json", ...args]);
  return { ...timed, rows: (JSON.parse(timed.stdout) as { rows: number }).rows };
}

if (process.argv[2] === "--baseline") {
  const started = performance.now();
  await baseline(process.argv[3]!, process.argv[4]!, Number(process.argv[5]));
  console.log((performance.now() - started) / 1000);
  process.exit(0);
}

run("npx", ["--yes", "pnpm@12.21.0", "--filter", "@lance-nd/cli", "build"]);
const dir = mkdtempSync(join(tmpdir(), "lance-nd-zarr-import-bench-"));
try {
  const store = join(dir, "ocean.zarr");
  const times = await (async () => {
    const data = ocean.oceanData(MIB);
    await (await zarrita.prepare(data, "zstd", false))(store);
    return data.times;
  })();
  const baseRun = timedNode(
    [
      "--conditions=@lance-nd/source",
      "--import",
      "tsx",
      SELF,
      "--baseline",
      store,
      join(dir, "baseline.lance"),
      String(times),
    ],
    { ...process.env, [ARENA_VARIABLE]: process.env[ARENA_VARIABLE] ?? ARENA_LIMIT },
  );
  const base = { seconds: Number(baseRun.stdout.trim()), peakMiB: baseRun.peakMiB };
  const same = cliImport(store, join(dir, "same-rows.lance"), ["--cf", "raw", "--chunk", `time=${ocean.CHUNK_TIMES}`]);
  const grid = cliImport(store, join(dir, "defaults.lance"), []);
  const goal = (ratio: number, peak: number) =>
    `${ratio <= 1.3 ? "met" : "NOT met"} / ${peak < 512 ? "met" : "NOT met"}`;
  console.log(`store: ${MIB} MiB of sst (Zarr v3, zstd 3, 1 MiB chunks), ${times} time steps`);
  console.log(
    `${"baseline: zarrita read + NdWriter, 1 chunk a row".padEnd(52)} ${base.seconds.toFixed(1).padStart(6)} s         ${times / ocean.CHUNK_TIMES} rows  peak RSS ${base.peakMiB.toFixed(0)} MiB`,
  );
  for (const [name, r] of [
    ["lance-nd import --cf raw --chunk time=4", same],
    ["lance-nd import (defaults: --cf mask, store grid)", grid],
  ] as const) {
    const ratio = r.seconds / base.seconds;
    console.log(
      `${name.padEnd(52)} ${r.seconds.toFixed(1).padStart(6)} s  ${ratio.toFixed(2)}x  ${r.rows} rows  peak RSS ${r.peakMiB.toFixed(0)} MiB  (goals <= 1.3x / < 512 MiB: ${goal(ratio, r.peakMiB)})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
