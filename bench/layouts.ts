/**
 * Layouts against xarray, in one run (lance-nd README "Layouts"): the
 * ERA5-shaped `tas(time, lat 361, lon 720)` of bench/xarray_regions.py
 * (netCDF-4 zlib 1, HDF5 chunks (1, 361, 720); a Zarr store of it by
 * xarray, chunks (15, 91, 180)), imported by the built `lance-nd` with its
 * defaults (one step a row, zstd 3; `--compression lz4` measures a table
 * read mostly by region: a layout's rows have its table's encoding), then
 * `lance-nd rechunk --chunk time=all,lat=20,lon=20` (the time-series
 * layout; layout and compression chosen before measuring, named in the
 * output; its time and peak RSS by /usr/bin/time). Four reads: one time
 * step, a 40x40 box over all steps, 10 days, one point's whole series; each
 * repetition reads a region not read before (cold) and then the same
 * region again (warm), one contestant's reads after the other's: lance-nd with both
 * layouts (the planner picks), lance-nd forced to the source rows
 * (`layout: "source"`), xarray + netCDF4 on the file, xarray + zarr-python
 * on the store. Medians; every result is checked against xarray's. Then
 * disk: the table with both layouts against the file plus the store.
 *
 *   npx turbo run build --filter=@lance-nd/cli   (the bench runs dist/cli.js)
 *   node --conditions=@lance-nd/source --import tsx bench/layouts.ts [--times 120] [--reps 7] [--compression lz4]
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { col, dataset, open, type Dataset } from "lance-nd";
import { median } from "./measure.js";

const LAT = 361;
const LON = 720;
const BOX = 40;
const DAYS = 10;
const LAYOUT = "time=all,lat=20,lon=20";
/** The table's compression (`import --compression`: zstd, the default); its layouts' rows have it too (lance-nd README "Layouts": Encodings). */
const COMPRESSION = "zstd";
const PYTHON = "/usr/bin/python3";
const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(HERE, "..", "packages", "cli", "dist", "cli.js");
const SCRIPT = path.join(HERE, "xarray_regions.py");

type Kind = "step" | "box" | "days" | "point";
const KINDS: [Kind, string][] = [
  ["step", "one time step"],
  ["box", `${BOX}x${BOX} box, all steps`],
  ["days", `${DAYS} days`],
  ["point", "one point, all steps"],
];
/** One region: `[start, stop)` along time, lat, lon. */
type Box = [[number, number], [number, number], [number, number]];

const { values: args } = parseArgs({
  options: {
    times: { type: "string", default: "120" },
    reps: { type: "string", default: "7" },
    compression: { type: "string", default: COMPRESSION },
  },
});
const TIMES = Number(args.times);
const REPS = Number(args.reps);
const dayOf = (d: number) => new Date(Date.UTC(2000, 0, 1) + d * 86_400_000);
const isoDay = (d: number) => dayOf(d).toISOString().slice(0, 10);

/**
 * Per kind, each region twice in a row (cold, then warm), a new region each
 * repetition; repetition `REPS` (one more) is the untimed warm-up read.
 */
function regions(): Record<Kind, Box[]> {
  const out: Record<Kind, Box[]> = { step: [], box: [], days: [], point: [] };
  for (let r = 0; r <= REPS; r++) {
    const t = (57 + 13 * r) % TIMES;
    const [y, x] = [(20 + 47 * r) % (LAT - BOX), (30 + 83 * r) % (LON - BOX)];
    const d = (31 + 11 * r) % (TIMES - DAYS);
    const [py, px] = [(7 + 53 * r) % LAT, (11 + 97 * r) % LON];
    const add = (kind: Kind, box: Box) => out[kind].push(box, box);
    add("step", [
      [t, t + 1],
      [0, LAT],
      [0, LON],
    ]);
    add("box", [
      [0, TIMES],
      [y, y + BOX],
      [x, x + BOX],
    ]);
    add("days", [
      [d, d + DAYS],
      [0, LAT],
      [0, LON],
    ]);
    add("point", [
      [0, TIMES],
      [py, py + 1],
      [px, px + 1],
    ]);
  }
  return out;
}

function checksum(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]! * ((i % 997) + 1);
  return sum;
}

function run(command: string, argv: readonly string[]): { stdout: string; stderr: string } {
  const done = spawnSync(command, argv, { encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
  if (done.status !== 0) throw new Error(`${command} ${argv.join(" ")} failed: ${done.stderr}`);
  return { stdout: done.stdout, stderr: done.stderr };
}

async function lanceNdRead(ds: Dataset, kind: Kind, box: Box): Promise<ArrayLike<number>> {
  const view =
    kind === "step"
      ? ds.isel({ time: box[0][0] })
      : kind === "days"
        ? ds.sel({ time: [dayOf(box[0][0]), dayOf(box[0][1] - 1)] })
        : ds.isel({ lat: box[1], lon: box[2] });
  return (await view.read(["tas"])).get("tas")!.values.toArray() as Float32Array;
}

function bytesOf(target: string): number {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.size;
  return fs.readdirSync(target).reduce((n, name) => n + bytesOf(path.join(target, name)), 0);
}

async function main(): Promise<void> {
  if (!fs.existsSync(CLI)) throw new Error(`build the CLI first: ${CLI} is missing`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-layouts-"));
  try {
    run(PYTHON, [SCRIPT, "make", dir, String(TIMES)]);
    const nc = path.join(dir, "tas.nc");
    const uri = path.join(dir, "tas.lance");
    run(process.execPath, [CLI, "import", nc, uri, "--compression", args.compression]);
    const sourceBytes = bytesOf(uri);
    const timedRechunk = run("/usr/bin/time", [
      "-f",
      "%e s %M KiB",
      process.execPath,
      CLI,
      "rechunk",
      uri,
      "--id",
      "tas.nc",
      "--chunk",
      LAYOUT,
      "--name",
      "series",
    ]);
    const [seconds, , rssKiB] = timedRechunk.stderr.trim().split("\n").at(-1)!.split(" ");

    const boxes = regions();
    const forPython = Object.fromEntries(
      Object.entries(boxes).map(([kind, list]) => [
        kind,
        list.map((b) =>
          kind === "step"
            ? { time: b[0][0] }
            : kind === "days"
              ? { from: isoDay(b[0][0]), to: isoDay(b[0][1] - 1) }
              : { lat: b[1], lon: b[2] },
        ),
      ]),
    );
    const regionsFile = path.join(dir, "regions.json");
    fs.writeFileSync(regionsFile, JSON.stringify(forPython));
    const python = JSON.parse(run(PYTHON, [SCRIPT, "time", dir, regionsFile]).stdout) as Record<
      "netcdf4" | "zarr",
      Record<Kind, { ms: number; checksum: number }[]>
    >;

    const table = await open(uri);
    const where = col("__global_attrs__.id").eq("tas.nc");
    const planned = await dataset(table, { where });
    const source = await dataset(table, { where, layout: "source" });
    const lines: string[] = [];
    const cell = (ms: number) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0));
    for (const [kind, text] of KINDS) {
      const times = { planned: [[], []], source: [[], []] } as Record<"planned" | "source", [number[], number[]]>;
      // One contestant's reads of this kind after the other's: a source-only
      // read leaves ~100 MiB of garbage, and the next read in the same process
      // would pay its collection.
      for (const [name, ds] of [
        ["planned", planned],
        ["source", source],
      ] as const) {
        // Untimed: the first read of a kind in the process pays for compiling its code.
        await lanceNdRead(ds, kind, boxes[kind].at(-1)!);
        for (const [r, box] of boxes[kind].slice(0, 2 * REPS).entries()) {
          const expected = python.netcdf4[kind][r]!.checksum;
          const start = performance.now();
          const values = await lanceNdRead(ds, kind, box);
          const ms = performance.now() - start;
          const sum = checksum(values);
          if (!(Math.abs(sum - expected) <= 1e-6 * Math.max(1, Math.abs(expected))))
            throw new Error(`${name} ${kind} #${r}: checksum ${sum}, expected ${expected}`);
          times[name][r % 2]!.push(ms);
        }
      }
      const first = boxes[kind][0]!;
      const view =
        kind === "step"
          ? planned.isel({ time: first[0][0] })
          : kind === "days"
            ? planned.sel({ time: [dayOf(first[0][0]), dayOf(first[0][1] - 1)] })
            : planned.isel({ lat: first[1], lon: first[2] });
      const picked = await view.readLayout(["tas"]);
      const py = (engine: "netcdf4" | "zarr", warm: number) =>
        median(
          python[engine][kind]
            .slice(0, 2 * REPS)
            .filter((_, i) => i % 2 === warm)
            .map((run) => run.ms),
        );
      for (const warm of [0, 1]) {
        const nd = median(times.planned[warm]!);
        const one = median(times.source[warm]!);
        const [n4, zr] = [py("netcdf4", warm), py("zarr", warm)];
        lines.push(
          `| ${text} | ${warm ? "warm" : "cold"} | ${picked} | ${cell(nd)} | ${cell(one)} | ${cell(n4)} | ${cell(zr)} | ${(nd / n4).toFixed(3)}x | ${(nd / zr).toFixed(2)}x |`,
        );
      }
    }
    const tableBytes = bytesOf(uri);
    const otherBytes = bytesOf(nc) + bytesOf(path.join(dir, "tas.zarr"));
    const mib = (n: number) => (n / 2 ** 20).toFixed(1);
    console.log(
      `tas(${TIMES}, ${LAT}, ${LON}) Float32, --compression ${args.compression}, layout ${LAYOUT}, medians of ${REPS} cold and ${REPS} warm reads (ms)\n`,
    );
    console.log(
      "| read | | layout picked | lance-nd, 2 layouts | lance-nd, source only | xarray+netCDF4 | xarray+zarr | vs netCDF4 | vs zarr |",
    );
    console.log("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const line of lines) console.log(line);
    console.log(
      `\nrechunk: ${seconds} s, peak RSS ${(Number(rssKiB) / 1024).toFixed(0)} MiB. Disk: table ${mib(sourceBytes)} MiB with the source rows, ${mib(tableBytes)} MiB with both layouts; netCDF-4 file + Zarr store ${mib(otherBytes)} MiB (${(tableBytes / otherBytes).toFixed(2)}x).`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
