/**
 * Benchmarks of the netCDF path, printed as ratios against baselines measured
 * in the same run (a script, not a timed test):
 *
 * 1. `lance-nd import` of a generated ~1 GiB netCDF-4 file (chunked, zlib)
 *    into a new table: wall time and peak RSS of the CLI process (GNU time),
 *    against the 512 MiB goal and against Python netCDF4 reading the file.
 * 2. Reading GMT's dcw-gmt.nc (1046 variables) whole with openNetcdf, against
 *    Python netCDF4 reading it whole (both timed inside their process, after
 *    loading the library; best of 3).
 *
 *   npx --yes pnpm@12.21.0 --filter @lance-nd/cli bench [MiB]
 *
 * The file is made once by scripts/make-bench-file.py in the temporary folder
 * (lance-nd-bench/), outside the repository. Needs /usr/bin/python3 with
 * netCDF4, /usr/bin/time and the built CLI (it builds it).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openNetcdf } from "@lance-nd/netcdf";

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, "..", "dist", "cli.js");
const MIB = Number(process.argv[2] ?? 1024);
const DCW = "/usr/share/gmt-dcw/dcw-gmt.nc";
const dir = join(tmpdir(), "lance-nd-bench");
mkdirSync(dir, { recursive: true });

function run(command: string, args: string[]): { stdout: string; stderr: string } {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed: ${result.error?.message ?? result.stderr}`);
  return { stdout: result.stdout, stderr: result.stderr };
}

const python = (code: string): number => Number(run("/usr/bin/python3", ["-c", code]).stdout.trim());

run("npx", ["--yes", "pnpm@12.21.0", "--filter", "@lance-nd/cli", "build"]);

// 1. A 1 GiB import.
const file = join(dir, `sst-${MIB}MiB.nc`);
if (!existsSync(file)) run("/usr/bin/python3", [join(HERE, "make-bench-file.py"), file, String(MIB)]);
// The table in a folder of its own: others may run the bench on the same file at the same time.
const tableDir = mkdtempSync(join(tmpdir(), "lance-nd-bench-table-"));
const table = join(tableDir, "bench.lance");
const started = performance.now();
const timed = run("/usr/bin/time", ["-f", "%M", "node", CLI, "import", file, table, "--json"]);
const importSeconds = (performance.now() - started) / 1000;
const peakMiB = Number(timed.stderr.trim().split("\n").at(-1)) / 1024;
const summary = JSON.parse(timed.stdout) as { rows: number; bytesRead: number };
const pythonRead = python(
  `import time, netCDF4\nt=time.perf_counter()\nds=netCDF4.Dataset(${JSON.stringify(file)})\nfor v in ds.variables.values(): v[:]\nprint(time.perf_counter()-t)`,
);
rmSync(tableDir, { recursive: true, force: true });
console.log(
  `import ${(summary.bytesRead / 2 ** 20).toFixed(0)} MiB (${summary.rows} rows): ${importSeconds.toFixed(1)} s, peak RSS ${peakMiB.toFixed(0)} MiB (goal < 512 MiB: ${peakMiB < 512 ? "met" : "NOT met"})`,
);
console.log(
  `  Python netCDF4 reads the same file in ${pythonRead.toFixed(1)} s: import / read = ${(importSeconds / pythonRead).toFixed(2)}x`,
);

// 2. dcw-gmt.nc read whole.
if (existsSync(DCW)) {
  const ours: number[] = [];
  await (await openNetcdf(DCW)).close(); // load h5wasm once, like Python's import
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const dcw = await openNetcdf(DCW);
    for (const v of dcw.variables) await dcw.read(v.name);
    await dcw.close();
    ours.push((performance.now() - t) / 1000);
  }
  const theirs = Math.min(
    ...[0, 1, 2].map(() =>
      python(
        `import time, netCDF4\nt=time.perf_counter()\nds=netCDF4.Dataset(${JSON.stringify(DCW)})\nfor v in ds.variables.values(): v[:]\nprint(time.perf_counter()-t)`,
      ),
    ),
  );
  const best = Math.min(...ours);
  console.log(
    `dcw-gmt.nc whole: openNetcdf ${best.toFixed(2)} s, Python netCDF4 ${theirs.toFixed(2)} s: ${(best / theirs).toFixed(2)}x (goal <= 2x: ${best / theirs <= 2 ? "met" : "NOT met"})`,
  );
} else {
  console.log(`dcw-gmt.nc not found at ${DCW} (apt-get install gmt-dcw): read benchmark skipped`);
}
