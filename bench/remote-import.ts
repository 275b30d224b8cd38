/**
 * `lance-nd import <url> --sel ...` of a store elsewhere against xarray in
 * the same run (CLI README, "Zarr": "Stores elsewhere and part of a
 * store"): a 1-month, 10x10-degree slice of a 2-year hourly 0.25-degree
 * regional Zarr v2 store (`t2m(time=17520, lat=121, lon=241)` float32,
 * about 2 GiB, zarr-python's blosc), made by bench/remote-import-xarray.py
 * in two layouts (chunks of 24x121x241, and of 8760x20x20) and served by
 * the test helpers' HTTP server (`Range` honoured, every body counted).
 * For each store:
 *
 * 1. bytes fetched (the import's `--json` `bytesFetched`, and the server's
 *    own count) against the bytes of the chunk files the selection touches
 *    plus the coordinates and metadata it reads; target 1.1x;
 * 2. wall time against `xr.open_zarr(url).sel(...).to_netcdf()` in the
 *    same run, the median of `--reps` rounds of one import and one xarray
 *    run each (one run moves by up to 1.5x against the next); target: not
 *    slower;
 * 3. peak RSS of the import (`/usr/bin/time -f "%e %M"`), the largest of
 *    the rounds; target under 512 MiB.
 *
 * Every import is exported back to netCDF (not timed) and its shape and sum
 * checked against xarray's file, so a fast wrong import fails the run.
 *
 *   npx --yes pnpm@12.21.0 --filter @lance-nd/cli build   (the bench runs dist/cli.js)
 *   node --conditions=@lance-nd/source --import tsx bench/remote-import.ts [--times 17520] [--reps 5]
 *
 * The stores (about 2.2 GiB on disk), tables and files go to a temporary
 * folder under the OS temp dir, removed at the end. Not part of CI.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startFileServer } from "@lance-nd/test-helpers";
import { check, median } from "./measure.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, "..", "packages", "cli", "dist", "cli.js");
const SCRIPT = join(HERE, "remote-import-xarray.py");
const PYTHON = "/usr/bin/python3";
const MIB = 2 ** 20;

/** The grid bench/remote-import-xarray.py writes: hourly from 2020-01-01, 0.25 degrees from 30N and 10W. */
const GRID = { lat: { first: 30, step: 0.25, size: 121 }, lon: { first: -10, step: 0.25, size: 241 } };
/** The slice imported: January 2020, 40N-50N, 5E-15E. */
const SLICE = { time: ["2020-01-01", "2020-01-31"], lat: [40, 50], lon: [5, 15] } as const;
/** The same slice as `[start, stop)` cells (January: 31 days of 24 hours). */
const CELLS = {
  time: [0, 31 * 24],
  lat: [(SLICE.lat[0] - GRID.lat.first) / GRID.lat.step, (SLICE.lat[1] - GRID.lat.first) / GRID.lat.step + 1],
  lon: [(SLICE.lon[0] - GRID.lon.first) / GRID.lon.step, (SLICE.lon[1] - GRID.lon.first) / GRID.lon.step + 1],
} as const;
const STORES = [
  { name: "by-time.zarr", chunks: [24, 121, 241] },
  { name: "by-space.zarr", chunks: [8760, 20, 20] },
] as const;

const { values: options } = parseArgs({
  options: { times: { type: "string", default: "17520" }, reps: { type: "string", default: "5" } },
});
const TIMES = Number(options.times);
const REPS = Math.max(1, Number(options.reps));

if (!existsSync(CLI)) {
  console.error(`${CLI} is missing: build the CLI first (npx --yes pnpm@12.21.0 --filter @lance-nd/cli build)`);
  process.exit(1);
}

/** What one timed child process gave: its output, wall seconds and peak RSS (bytes) as `/usr/bin/time` measured them. */
interface Timed {
  readonly stdout: string;
  readonly seconds: number;
  readonly peakRss: number;
}

/** Runs `command` under `/usr/bin/time -f "%e %M"` without blocking this process (the server answers meanwhile). */
function timed(command: string, args: readonly string[]): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const child = spawn("/usr/bin/time", ["-f", "%e %M", command, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let [stdout, stderr] = ["", ""];
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const last = stderr.trimEnd().split("\n").at(-1) ?? "";
      const match = /^([\d.]+) (\d+)$/.exec(last);
      if (code !== 0 || match === null)
        reject(new Error(`${command} ${args.join(" ")} failed (exit ${code}):\n${stderr}`));
      else resolve({ stdout, seconds: Number(match[1]), peakRss: Number(match[2]) * 1024 });
    });
  });
}

/** The bytes of store `name`'s chunk files of `t2m` the slice touches, with every file of its coordinates and its metadata. */
function touchedBytes(folder: string, store: (typeof STORES)[number]): number {
  const root = join(folder, store.name);
  const ranges = [CELLS.time, CELLS.lat, CELLS.lon].map(([start, stop], i) => {
    const size = store.chunks[i]!;
    return [Math.floor(start! / size), Math.floor((stop! - 1) / size)] as const;
  });
  let bytes = statSync(join(root, ".zmetadata")).size;
  for (let t = ranges[0]![0]; t <= ranges[0]![1]; t++)
    for (let y = ranges[1]![0]; y <= ranges[1]![1]; y++)
      for (let x = ranges[2]![0]; x <= ranges[2]![1]; x++) bytes += statSync(join(root, "t2m", `${t}.${y}.${x}`)).size;
  for (const coordinate of ["time", "lat", "lon"])
    for (const file of readdirSync(join(root, coordinate)))
      if (!file.startsWith(".")) bytes += statSync(join(root, coordinate, file)).size;
  return bytes;
}

const sel = `time=${SLICE.time.join(":")},lat=${SLICE.lat.join(":")},lon=${SLICE.lon.join(":")}`;
const folder = mkdtempSync(join(tmpdir(), "lance-nd-remote-import-"));
const loadStart = loadavg()[0]!;
const rows: Record<string, number | string>[] = [];
try {
  const started = performance.now();
  await timed(PYTHON, [SCRIPT, "make", folder, String(TIMES)]);
  console.log(
    `stores    t2m(time=${TIMES}, lat=121, lon=241) float32, two layouts, made by xarray in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  const server = await startFileServer(folder);
  try {
    for (const store of STORES) {
      const url = `${server.url}/${store.name}`;
      const touched = touchedBytes(folder, store);
      const table = join(folder, `${store.name}.lance`);
      const imports: Timed[] = [];
      const xarrays: Timed[] = [];
      let fetched = { bytesFetched: 0, served: 0, xarrayServed: 0 };
      let selected = "";
      for (let round = 0; round < REPS; round++) {
        rmSync(table, { recursive: true, force: true });
        server.reset();
        const cli = await timed(process.execPath, [CLI, "import", url, table, "--sel", sel, "--json"]);
        const served = server.requests.reduce((n, r) => n + r.bytes, 0);
        const { bytesFetched } = JSON.parse(cli.stdout) as { bytesFetched: number };
        const exported = join(folder, `${store.name}.nc`);
        await timed(process.execPath, [CLI, "export", table, exported]);
        const ours = JSON.parse((await timed(PYTHON, [SCRIPT, "sum", exported])).stdout) as {
          sum: number;
          shape: number[];
        };

        server.reset();
        const reference = join(folder, `${store.name}.xarray.nc`);
        const bounds = [...SLICE.time, ...SLICE.lat, ...SLICE.lon].map(String);
        const xarray = await timed(PYTHON, [SCRIPT, "import", url, reference, ...bounds]);
        const xarrayServed = server.requests.reduce((n, r) => n + r.bytes, 0);
        const theirs = JSON.parse(xarray.stdout) as { sum: number; shape: number[] };
        if (ours.shape.join("x") !== theirs.shape.join("x"))
          throw new Error(`${store.name}: imported ${ours.shape.join("x")}, xarray ${theirs.shape.join("x")}`);
        check(`${store.name}: sum of t2m`, ours.sum, theirs.sum);
        if (round > 0 && bytesFetched !== fetched.bytesFetched)
          throw new Error(
            `${store.name}: round ${round} fetched ${bytesFetched} bytes, the first ${fetched.bytesFetched}`,
          );
        fetched = { bytesFetched, served, xarrayServed };
        selected = theirs.shape.join("x");
        imports.push(cli);
        xarrays.push(xarray);
      }
      const ratios = imports.map((cli, round) => cli.seconds / xarrays[round]!.seconds);
      const seconds = median(imports.map((cli) => cli.seconds));
      const xarraySeconds = median(xarrays.map((xarray) => xarray.seconds));

      rows.push({
        store: `${store.name} (${store.chunks.join("x")})`,
        selected,
        touchedMiB: touched / MIB,
        fetchedMiB: fetched.bytesFetched / MIB,
        servedMiB: fetched.served / MIB,
        fetchedRatio: fetched.bytesFetched / touched,
        xarrayServedMiB: fetched.xarrayServed / MIB,
        seconds,
        xarraySeconds,
        timeRatio: seconds / xarraySeconds,
        roundRatios: `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x`,
        peakRssMiB: Math.max(...imports.map((cli) => cli.peakRss)) / MIB,
        xarrayPeakRssMiB: Math.max(...xarrays.map((xarray) => xarray.peakRss)) / MIB,
      });
      rmSync(table, { recursive: true, force: true });
    }
  } finally {
    await server.stop();
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const date = new Date().toISOString().slice(0, 10);
console.log(
  `\nremote import, ${TIMES} steps, median of ${REPS} interleaved rounds, ${date}, load average ${loadStart.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}: lance-nd import <url> <table> --sel ${sel} --json\n`,
);
console.log(
  "| store (chunks) | selected | touched MiB | fetched MiB (served) | fetched / touched | xarray fetched MiB | import s | xarray s | import / xarray (rounds) | import peak RSS MiB | xarray peak RSS MiB |",
);
console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const r of rows) {
  const f = (key: string, digits = 1) => (r[key] as number).toFixed(digits);
  console.log(
    `| ${r.store} | ${r.selected} | ${f("touchedMiB")} | ${f("fetchedMiB")} (${f("servedMiB")}) | ${f("fetchedRatio", 2)}x | ${f("xarrayServedMiB")} | ${f("seconds")} | ${f("xarraySeconds")} | ${f("timeRatio", 2)}x (${r.roundRatios}) | ${f("peakRssMiB", 0)} | ${f("xarrayPeakRssMiB", 0)} |`,
  );
}
mkdirSync(join(HERE, "results"), { recursive: true });
const saved = join(HERE, "results", `remote-import-${TIMES}-${date}.json`);
writeFileSync(
  saved,
  `${JSON.stringify({ date, times: TIMES, reps: REPS, sel, loadStart, loadEnd: loadavg()[0], rows }, null, 2)}\n`,
);
console.log(`\nsaved ${saved}`);
