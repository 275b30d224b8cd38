/**
 * Region reads against xarray, in one run (packages/lance-nd/SDK-NOTES.md,
 * section 26; CLI README "Rows of an import"): an ERA5-shaped
 * `tas(time, lat 361, lon 720)` Float32 made by Debian's netCDF4-python
 * (zlib 1, HDF5 chunks (1, 361, 720), CF time in days, descending latitude)
 * and the same dataset as a Zarr store from `xarray.Dataset.to_zarr`
 * (chunks (15, 91, 180), Blosc lz4), both imported by the built `lance-nd`
 * with its defaults (zstd 3; rows on the source's chunks), the netCDF file
 * also with `--compression lz4` and with `--chunk time=15,lat=91,lon=180`,
 * and once more with `--others` (default 999) other datasets of 1 MiB each
 * appended to its table (read with `where` on its id). Three reads, each repetition
 * on a region not read before: one time step, a 40x40 box over all time,
 * 10 days by `sel`; timed in lance-nd (`dataset().isel/sel().read`), raw
 * lancedb on the fastest path to the same rows (`takeRowIds` of the rows,
 * then the window copied out: section 26), xarray + netCDF4 and xarray +
 * zarr-python (bench/xarray_regions.py, one Python process); every
 * contestant's values are checked against the others. Then whole-process
 * times: `lance-nd scan --isel` / `export --isel` against `python3 -c` with
 * xarray, and `lance-nd --version` against `node -e 0`. Not part of CI.
 *
 *   npx turbo run build --filter=@lance-nd/cli   (the bench runs dist/cli.js)
 *   node --conditions=@lance-nd/source --import tsx bench/xarray-regions.ts [--times 120] [--reps 5] [--others 999]
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import * as lancedb from "@lancedb/lancedb";
import { Float32 as Float32Type, type Data, type Float32 } from "apache-arrow";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { append, col, dataset, open } from "lance-nd";

const LAT = 361;
const LON = 720;
const BOX = 40;
const DAYS = 10;
const PYTHON = "/usr/bin/python3";
const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(HERE, "..", "packages", "cli", "dist", "cli.js");
const SCRIPT = path.join(HERE, "xarray_regions.py");

type Kind = "step" | "box" | "days";
/** One region: `[start, stop)` along time, lat, lon. */
type Box = [[number, number], [number, number], [number, number]];

const { values: args } = parseArgs({
  options: {
    times: { type: "string", default: "120" },
    reps: { type: "string", default: "5" },
    others: { type: "string", default: "999" },
  },
});
const TIMES = Number(args.times);
const REPS = Number(args.reps);
const OTHERS = Number(args.others);
const dayOf = (d: number) => new Date(Date.UTC(2000, 0, 1) + d * 86_400_000);
const isoDay = (d: number) => dayOf(d).toISOString().slice(0, 10);

/** The regions of each read, one per repetition (plus a warm-up first), none read twice. */
function regions(): Record<Kind, Box[]> {
  const out: Record<Kind, Box[]> = { step: [], box: [], days: [] };
  for (let r = 0; r <= REPS; r++) {
    const t = (57 + 13 * r) % TIMES;
    out.step.push([
      [t, t + 1],
      [0, LAT],
      [0, LON],
    ]);
    const [y, x] = [(20 + 47 * r) % (LAT - BOX), (30 + 83 * r) % (LON - BOX)];
    out.box.push([
      [0, TIMES],
      [y, y + BOX],
      [x, x + BOX],
    ]);
    const d = (31 + 11 * r) % (TIMES - DAYS);
    out.days.push([
      [d, d + DAYS],
      [0, LAT],
      [0, LON],
    ]);
  }
  return out;
}

/** The checksum every contestant must match: a position-weighted sum of the window in C order. */
function checksum(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]! * ((i % 997) + 1);
  return sum;
}

function sameChecksum(what: string, actual: number, expected: number): void {
  if (!(Math.abs(actual - expected) <= 1e-6 * Math.max(1, Math.abs(expected))))
    throw new Error(`${what}: checksum ${actual}, expected ${expected}`);
}

function run(command: string, argv: readonly string[]): string {
  const done = spawnSync(command, argv, { encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
  if (done.status !== 0) throw new Error(`${command} ${argv.join(" ")} failed: ${done.stderr}`);
  return done.stdout;
}

/** lance-nd's read of `box` (the `days` read by `sel` on dates) as flat values. */
async function lanceNdRead(ds: Awaited<ReturnType<typeof dataset>>, kind: Kind, box: Box): Promise<ArrayLike<number>> {
  const view =
    kind === "step"
      ? ds.isel({ time: box[0][0] })
      : kind === "box"
        ? ds.isel({ lat: box[1], lon: box[2] })
        : ds.sel({ time: [dayOf(box[0][0]), dayOf(box[0][1] - 1)] });
  return (await view.read(["tas"])).get("tas")!.values.toArray() as Float32Array;
}

/** A table's rows as raw lancedb sees them: `_rowid`, start and size along (time, lat, lon). */
interface RawRow {
  id: bigint;
  start: number[];
  size: number[];
}

/** The rows of the dataset `id` (the table may hold others), found before any read is timed. */
async function rawRows(table: lancedb.Table, id: string): Promise<RawRow[]> {
  const rows: RawRow[] = [];
  const scanned = await table
    .query()
    .where(`__global_attrs__.id = '${id}'`)
    .select(["__global_attrs__", "tas.dim_sizes"])
    .withRowId()
    .toArrow();
  for (const rb of scanned.batches) {
    for (let r = 0; r < rb.numRows; r++) {
      const attrs = rb.getChild("__global_attrs__")!.get(r) as { chunk_offset: Iterable<number> | null };
      const size = Array.from(rb.getChild("tas.dim_sizes")!.get(r) as Iterable<number>, Number);
      const start = attrs.chunk_offset === null ? [0, 0, 0] : Array.from(attrs.chunk_offset, Number);
      rows.push({ id: rb.getChild("_rowid")!.get(r) as bigint, start, size });
    }
  }
  return rows;
}

/** Raw lancedb: `takeRowIds` of the rows overlapping `box` (found in the untimed row list), then the window copied out. */
async function rawRead(table: lancedb.Table, rows: readonly RawRow[], box: Box): Promise<Float32Array> {
  const hit = rows.filter((row) => box.every(([a, b], d) => row.start[d]! < b && a < row.start[d]! + row.size[d]!));
  const byId = new Map(hit.map((row) => [row.id, row]));
  const ids = hit.map((row) => row.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const taken = await table.takeRowIds(ids).select(["tas"]).withRowId().toArrow();
  const shape = box.map(([a, b]) => b - a);
  const out = new Float32Array(shape[0]! * shape[1]! * shape[2]!);
  for (const rb of taken.batches) {
    const list = rb.getChild("tas")!.data[0]!.children[0]!;
    const offsets = list.valueOffsets as Int32Array;
    const floats = (list.children[0] as Data<Float32>).values;
    for (let r = 0; r < rb.numRows; r++) {
      const row = byId.get(rb.getChild("_rowid")!.get(r) as bigint)!;
      const cells = floats.subarray(offsets[list.offset + r]!, offsets[list.offset + r + 1]!);
      const from = box.map(([a], d) => Math.max(a, row.start[d]!));
      const to = box.map(([, b], d) => Math.min(b, row.start[d]! + row.size[d]!));
      for (let t = from[0]!; t < to[0]!; t++)
        for (let y = from[1]!; y < to[1]!; y++) {
          const src =
            ((t - row.start[0]!) * row.size[1]! + (y - row.start[1]!)) * row.size[2]! + (from[2]! - row.start[2]!);
          const dst = ((t - box[0][0]) * shape[1]! + (y - box[1][0])) * shape[2]! + (from[2]! - box[2][0]);
          out.set(cells.subarray(src, src + to[2]! - from[2]!), dst);
        }
    }
  }
  return out;
}

/** Appends `count` other datasets of 1 MiB each (`other(1, 512, 512)` Float32, ids `other-<n>.nc`) to the table at `uri`. */
async function appendOthers(uri: string, count: number): Promise<void> {
  const table = await open(uri);
  async function* others(): AsyncGenerator<NdRecordBatch> {
    for (let n = 0; n < count; n++) {
      const values = Float32Array.from({ length: 512 * 512 }, (_, i) => 250 + ((i * 7 + n) % 1000) / 10);
      yield new NdRecordBatch(
        { tas: NdArray.from(values, { dims: { time: 1, lat: 512, lon: 512 }, type: new Float32Type() }) },
        { id: `other-${n}.nc` },
      );
    }
  }
  await append(table, others());
}

/** Best time (ms) over the repetitions after the first (a warm-up on its own region), checking each result. */
async function timed(
  what: string,
  boxes: readonly Box[],
  read: (box: Box) => Promise<ArrayLike<number>>,
  expected: readonly number[],
): Promise<number> {
  let fastest = Number.POSITIVE_INFINITY;
  for (const [r, box] of boxes.entries()) {
    const start = performance.now();
    const values = await read(box);
    const ms = performance.now() - start;
    sameChecksum(`${what} #${r}`, checksum(values), expected[r]!);
    if (r > 0) fastest = Math.min(fastest, ms);
  }
  return fastest;
}

/** Best of 3 wall times (ms) of a whole process. */
function processMs(command: string, argv: readonly string[]): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    run(command, argv);
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

async function main(): Promise<void> {
  if (!fs.existsSync(CLI)) throw new Error(`build the CLI first: ${CLI} is missing`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-xarray-regions-"));
  try {
    console.log(`tas(${TIMES}, ${LAT}, ${LON}) Float32, best of ${REPS} (each on a region not read before)`);
    run(PYTHON, [SCRIPT, "make", dir, String(TIMES)]);
    const nc = path.join(dir, "tas.nc");
    const store = path.join(dir, "tas.zarr");
    // Each table: its label, the source, the import's options, and the xarray engine on the same storage.
    const tables: {
      label: string;
      source: string;
      options: string[];
      engine: "netcdf4" | "zarr";
      others?: number;
    }[] = [
      { label: "default import", source: nc, options: [], engine: "netcdf4" },
      { label: "default import, --compression lz4", source: nc, options: ["--compression", "lz4"], engine: "netcdf4" },
      {
        label: "--chunk time=15,lat=91,lon=180",
        source: nc,
        options: ["--chunk", "time=15,lat=91,lon=180"],
        engine: "zarr",
      },
      { label: "Zarr import (its chunks)", source: store, options: [], engine: "zarr" },
      ...(OTHERS > 0
        ? [
            {
              label: `default import among ${OTHERS} other datasets`,
              source: nc,
              options: [],
              engine: "netcdf4" as const,
              others: OTHERS,
            },
          ]
        : []),
    ];
    const uris = tables.map((_, i) => path.join(dir, `t${i}.lance`));
    for (const [i, t] of tables.entries()) {
      run(process.execPath, [CLI, "import", t.source, uris[i]!, ...t.options]);
      if (t.others !== undefined) await appendOthers(uris[i]!, t.others);
    }

    const boxes = regions();
    const regionsFile = path.join(dir, "regions.json");
    const forPython = Object.fromEntries(
      Object.entries(boxes).map(([kind, list]) => [
        kind,
        list.map((b) =>
          kind === "step"
            ? { time: b[0][0] }
            : kind === "box"
              ? { lat: b[1], lon: b[2] }
              : { from: isoDay(b[0][0]), to: isoDay(b[0][1] - 1) },
        ),
      ]),
    );
    fs.writeFileSync(regionsFile, JSON.stringify(forPython));
    const python = JSON.parse(run(PYTHON, [SCRIPT, "time", dir, regionsFile])) as Record<
      "netcdf4" | "zarr",
      Record<Kind, { ms: number; checksum: number }[]>
    >;
    const bestOf = (runs: { ms: number }[]) => Math.min(...runs.slice(1).map((r) => r.ms));
    const expected = (kind: Kind) => python.netcdf4[kind].map((r) => r.checksum);
    for (const kind of ["step", "box", "days"] as const)
      for (const [i, r] of python.zarr[kind].entries())
        sameChecksum(`zarr-python ${kind} #${i}`, r.checksum, expected(kind)[i]!);

    const rows: string[][] = [];
    const kinds: [Kind, string][] = [
      ["step", "one time step `isel(time=k)`"],
      ["box", `${BOX}x${BOX} box over all ${TIMES} steps`],
      ["days", `${DAYS} days \`sel(time=[d, d+${DAYS - 1}])\``],
    ];
    for (const [i, { label, engine, source }] of tables.entries()) {
      const uri = uris[i]!;
      const id = path.basename(source);
      const ds = await dataset(await open(uri), { where: col("__global_attrs__.id").eq(id) });
      const raw = await (await lancedb.connect(path.dirname(uri))).openTable(path.basename(uri, ".lance"));
      const list = await rawRows(raw, id);
      for (const [kind, text] of kinds) {
        const ndMs = await timed(
          `lance-nd ${label} ${kind}`,
          boxes[kind],
          (b) => lanceNdRead(ds, kind, b),
          expected(kind),
        );
        const rawMs = await timed(`raw ${label} ${kind}`, boxes[kind], (b) => rawRead(raw, list, b), expected(kind));
        const xr = bestOf(python[engine][kind]);
        const xrName = engine === "netcdf4" ? "netCDF4" : "zarr-python";
        rows.push([
          `${text}, ${label}`,
          ndMs.toFixed(1),
          rawMs.toFixed(1),
          `${(ndMs / rawMs).toFixed(2)}x`,
          `${xr.toFixed(1)} (${xrName})`,
          `${(ndMs / xr).toFixed(2)}x`,
        ]);
      }
      raw.close();
    }
    const table = uris[0]!;
    const step = Math.min(50, TIMES - 1);
    const out = (name: string) => path.join(dir, `${name}-${Math.random().toString(36).slice(2)}.nc`);
    const scanMs = processMs(process.execPath, [CLI, "scan", table, "--isel", `time=${step}`, "--project", "tas"]);
    const exportMs = processMs("/bin/sh", [
      "-c",
      `${process.execPath} ${CLI} export ${table} ${out("e")} --isel time=${step}`,
    ]);
    const xrScanMs = processMs(PYTHON, [
      "-c",
      `import xarray as xr; xr.open_dataset(${JSON.stringify(nc)}).tas.isel(time=${step}).values`,
    ]);
    const xrExportMs = processMs("/bin/sh", [
      "-c",
      `${PYTHON} -c 'import xarray as xr, sys; xr.open_dataset(sys.argv[1]).isel(time=${step}).to_netcdf(sys.argv[2])' ${nc} ${out("x")}`,
    ]);
    const versionMs = processMs(process.execPath, [CLI, "--version"]);
    const nodeMs = processMs(process.execPath, ["-e", "0"]);

    console.log(
      "\n| read (in process, best of reps) | lance-nd ms | raw lancedb (take + copy) ms | lance-nd / raw | xarray ms | lance-nd / xarray |",
    );
    console.log("| --- | --: | --: | --: | --: | --: |");
    for (const row of rows) console.log(`| ${row.join(" | ")} |`);
    console.log("\n| whole process (best of 3) | lance-nd ms | other ms | difference ms |");
    console.log("| --- | --: | --: | --: |");
    console.log(
      `| \`scan --isel time=${step}\` vs \`python3 -c\` xarray .values | ${scanMs.toFixed(0)} | ${xrScanMs.toFixed(0)} | ${(scanMs - xrScanMs).toFixed(0)} |`,
    );
    console.log(
      `| \`export --isel time=${step}\` vs xarray \`to_netcdf\` | ${exportMs.toFixed(0)} | ${xrExportMs.toFixed(0)} | ${(exportMs - xrExportMs).toFixed(0)} |`,
    );
    console.log(
      `| \`lance-nd --version\` vs \`node -e 0\` | ${versionMs.toFixed(0)} | ${nodeMs.toFixed(0)} | ${(versionMs - nodeMs).toFixed(0)} |`,
    );
    console.log(
      `| \`scan --isel time=${step}\` vs \`node -e 0\` | ${scanMs.toFixed(0)} | ${nodeMs.toFixed(0)} | ${(scanMs - nodeMs).toFixed(0)} |`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
