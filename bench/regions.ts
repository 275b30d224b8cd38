/**
 * Region reads (packages/lance-nd README "Datasets"): lance-nd's
 * `dataset(...).isel(...).read()` against lance-nd's own one-chunk read, raw
 * lancedb's two-step read of the same rows (`_rowid`s, then `takeRowIds`)
 * plus the window copy, and zarrita's `zarr.get(arr, [slice, ...])`, on the
 * first 64 time steps of the suite's sst, chunked [4, 90, 180] (64 chunks,
 * zstd level 3 everywhere). Three windows: inside one chunk, across 4 chunks,
 * one time step across all lat/lon chunks.
 *
 *   node --conditions=@lance-nd/source --import tsx bench/regions.ts [--reps 5]
 *
 * `run.ts` runs it after the main tables.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import * as lancedb from "@lancedb/lancedb";
import FileSystemStore from "@zarrita/storage/fs";
import type { Data, Float32 } from "apache-arrow";
import * as zarr from "zarrita";
import { NdArray, NdRecordBatch, attr, chunk } from "@lance-nd/nd-arrow";
import { col, dataset, open, scan, write } from "lance-nd";
import { ZSTD_LEVEL } from "./contestant.js";
import { best } from "./measure.js";
import { LAT, LON, oceanData, sumOf } from "./ocean-data.js";
import { zarrCodecs } from "./zarrita.js";

const TIMES = 64;
const CHUNK = [4, 90, 180] as const;

/** A window: `[start, stop)` per dim (time, lat, lon); a number picks one index. */
type Window = readonly [number | [number, number], [number, number], [number, number]];

const WINDOWS: { name: string; window: Window; chunks: number }[] = [
  {
    name: "inside one chunk",
    window: [
      [33, 35],
      [10, 80],
      [20, 170],
    ],
    chunks: 1,
  },
  {
    name: "across 4 chunks",
    window: [
      [33, 35],
      [60, 120],
      [150, 210],
    ],
    chunks: 4,
  },
  { name: "one time step, all lat/lon", window: [34, [0, LAT], [0, LON]], chunks: 4 },
];

const range = (w: number | [number, number]): [number, number] => (typeof w === "number" ? [w, w + 1] : w);

/** The chunk rows (names `c<n>`) a window overlaps, in row-major chunk order. */
function chunkNames(window: Window): string[] {
  const counts = [TIMES / CHUNK[0], LAT / CHUNK[1], LON / CHUNK[2]];
  const names: string[] = [];
  for (let t = 0; t < counts[0]!; t++)
    for (let y = 0; y < counts[1]!; y++)
      for (let x = 0; x < counts[2]!; x++) {
        const box = [t, y, x].map((c, d) => [c * CHUNK[d]!, (c + 1) * CHUNK[d]!]);
        if (window.every((w, d) => range(w)[0] < box[d]![1]! && box[d]![0]! < range(w)[1]))
          names.push(`c${(t * counts[1]! + y) * counts[2]! + x}`);
      }
  return names;
}

/** One result line: the window and each reader's best time. */
export interface RegionResult {
  window: string;
  chunks: number;
  regionMs: number;
  oneChunkMs: number;
  rawMs: number;
  zarritaMs: number;
}

/** Writes the data both ways under `tmp` and times every window; `reps` rounds, best of each. */
export async function measureRegions(
  reps: number,
  tmp: string,
): Promise<{ results: RegionResult[]; planMs: number; dimSizesMs: number; wholeColumnMs: number }> {
  const data = oceanData(32);
  const sst = data.sst.subarray(0, TIMES * LAT * LON);
  const batch = new NdRecordBatch(
    {
      sst: NdArray.from(sst, { dims: { time: TIMES, lat: LAT, lon: LON } }),
      time: NdArray.from(data.time.subarray(0, TIMES), { dims: { time: TIMES } }),
      lat: NdArray.from(data.lat, { dims: { lat: LAT } }),
      lon: NdArray.from(data.lon, { dims: { lon: LON } }),
    },
    { id: "ocean" },
  );
  const rows = chunk(batch, { time: CHUNK[0], lat: CHUNK[1], lon: CHUNK[2] }).map((c, i) =>
    c.withGlobalAttrs(new Map([...c.globalAttrs, ["chunk", attr.utf8(`c${i}`)]])),
  );
  const dir = path.join(tmp, "regions");
  fs.mkdirSync(dir, { recursive: true });
  await write(path.join(dir, "ocean.lance"), rows, {
    columnDefaults: { compression: { codec: "zstd", level: ZSTD_LEVEL } },
  });
  const table = await open(path.join(dir, "ocean.lance"));
  const raw = await (await lancedb.connect(dir)).openTable("ocean");

  const root = zarr.root(new FileSystemStore(path.join(tmp, "regions.zarr")));
  const zsst = await zarr.create(root.resolve("sst"), {
    shape: [TIMES, LAT, LON],
    chunkShape: [...CHUNK],
    dtype: "float32",
    codecs: zarrCodecs("zstd", 4),
  });
  await zarr.set(zsst, null, { data: sst, shape: [TIMES, LAT, LON], stride: [LAT * LON, LON, 1] });

  let ds = await dataset(table);
  const planMs = await best(reps, async () => (ds = await dataset(table)), { warm: true });
  const sumRows = async (query: lancedb.Query) => (await query.toArray()).length;
  const dimSizesMs = await best(reps, () => sumRows(raw.query().select(["sst.dim_sizes"])), { warm: true });
  const wholeColumnMs = await best(reps, () => sumRows(raw.query().select(["sst"])), { warm: true });

  const results: RegionResult[] = [];
  for (const { name, window, chunks } of WINDOWS) {
    const names = chunkNames(window);
    if (names.length !== chunks) throw new Error(`${name}: ${names.length} chunks, expected ${chunks}`);
    const expected = sumWindow(sst, [TIMES, LAT, LON], window.map(range));
    const view = ds.isel({ time: window[0], lat: window[1], lon: window[2] });
    const region = async () =>
      check(name, sumOf((await view.read(["sst"])).get("sst")!.values.toArray() as Float32Array), expected);
    const oneChunk = async () => {
      const [row] = await scan(table)
        .project(["sst"])
        .filterExpr(col("__global_attrs__.chunk").eq(names[0]!))
        .toArray();
      return sumOf(row!.get("sst")!.values.toArray() as Float32Array);
    };
    const rawRead = async () => check(name, await rawTwoStep(raw, names, window), expected);
    const zarrRead = async () => {
      const sel = window.map((w) => (typeof w === "number" ? w : zarr.slice(w[0], w[1])));
      check(name, sumOf((await zarr.get(zsst, sel)).data as Float32Array), expected);
    };
    const times = [Infinity, Infinity, Infinity, Infinity];
    const runs = [region, oneChunk, rawRead, zarrRead];
    for (const run of runs) await run();
    for (let rep = 0; rep < reps; rep++) {
      for (const [i, run] of runs.entries()) times[i] = Math.min(times[i]!, await best(1, run));
    }
    results.push({
      window: name,
      chunks,
      regionMs: times[0]!,
      oneChunkMs: times[1]!,
      rawMs: times[2]!,
      zarritaMs: times[3]!,
    });
  }
  raw.close();
  return { results, planMs, dimSizesMs, wholeColumnMs };
}

/**
 * Raw lancedb as a user would write it: the `_rowid`s of the overlapping
 * chunk rows, `takeRowIds` of their `sst`, then the window copied out of
 * each row's values with `subarray` / `set` (global attributes give the
 * chunk names; the chunk layout is known). Returns the window's sum.
 */
async function rawTwoStep(raw: lancedb.Table, names: readonly string[], window: Window): Promise<number> {
  const where = `__global_attrs__.chunk IN (${names.map((n) => `'${n}'`).join(", ")})`;
  const ids: bigint[] = [];
  for (const rb of await raw
    .query()
    .where(where)
    .withRowId()
    .select(["_rowid", "__global_attrs__"])
    .toArrow()
    .then((t) => t.batches)) {
    const column = rb.getChild("_rowid")!;
    for (let i = 0; i < rb.numRows; i++) ids.push(column.get(i) as bigint);
  }
  const taken = await raw.takeRowIds(ids).select(["sst", "__global_attrs__"]).toArrow();
  const box = window.map(range) as [[number, number], [number, number], [number, number]];
  const out = new Float32Array(box.reduce((n, [a, b]) => n * (b - a), 1));
  const outStrides = [(box[1][1] - box[1][0]) * (box[2][1] - box[2][0]), box[2][1] - box[2][0]];
  for (const rb of taken.batches) {
    const values = rb.getChild("sst")!.data[0]!.children[0]!;
    const offsets = values.valueOffsets as Int32Array;
    const floats = (values.children[0] as Data<Float32>).values;
    const chunkOf = rb.getChild("__global_attrs__")!;
    for (let r = 0; r < rb.numRows; r++) {
      const n = Number(String((chunkOf.get(r) as { chunk: string }).chunk).slice(1));
      const start = [Math.floor(n / 4) * CHUNK[0], Math.floor((n % 4) / 2) * CHUNK[1], (n % 2) * CHUNK[2]];
      const cells = floats.subarray(offsets[r]!, offsets[r + 1]!);
      const from = box.map(([a], d) => Math.max(a, start[d]!));
      const to = box.map(([, b], d) => Math.min(b, start[d]! + CHUNK[d]!));
      for (let t = from[0]!; t < to[0]!; t++)
        for (let y = from[1]!; y < to[1]!; y++) {
          const src = ((t - start[0]!) * CHUNK[1] + (y - start[1]!)) * CHUNK[2] + (from[2]! - start[2]!);
          const dst = (t - box[0][0]) * outStrides[0]! + (y - box[1][0]) * outStrides[1]! + (from[2]! - box[2][0]);
          out.set(cells.subarray(src, src + to[2]! - from[2]!), dst);
        }
    }
  }
  return sumOf(out);
}

/** The sum of a window of a row-major array, cell by cell (the check every reader must pass). */
function sumWindow(values: Float32Array, shape: readonly number[], box: readonly [number, number][]): number {
  let sum = 0;
  for (let t = box[0]![0]; t < box[0]![1]; t++)
    for (let y = box[1]![0]; y < box[1]![1]; y++)
      sum += sumOf(
        values.subarray((t * shape[1]! + y) * shape[2]! + box[2]![0], (t * shape[1]! + y) * shape[2]! + box[2]![1]),
      );
  return sum;
}

function check(what: string, actual: number, expected: number): void {
  if (Math.abs(actual - expected) > 1e-6 * Math.max(1, Math.abs(expected)))
    throw new Error(`${what}: sum ${actual}, expected ${expected}`);
}

/** The region table: times and the ratios to the goals (bench/README.md, "Region reads"). */
export function formatRegions(measured: Awaited<ReturnType<typeof measureRegions>>): string {
  const lines = [
    `Region reads: sst(${TIMES}, ${LAT}, ${LON}) in chunks [${CHUNK.join(", ")}], zstd ${ZSTD_LEVEL}; dataset() plan ${measured.planMs.toFixed(1)} ms ` +
      `(select sst.dim_sizes ${measured.dimSizesMs.toFixed(1)} ms vs select sst ${measured.wholeColumnMs.toFixed(1)} ms over all rows)`,
    "| window | chunks | lance-nd ms | k x one-chunk ms | raw two-step+copy ms | zarrita ms | vs k one-chunk (goal <= 1.3) | vs raw (goal <= 1.2) | vs zarrita |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of measured.results) {
    const k = r.chunks * r.oneChunkMs;
    lines.push(
      `| ${r.window} | ${r.chunks} | ${r.regionMs.toFixed(1)} | ${k.toFixed(1)} | ${r.rawMs.toFixed(1)} | ${r.zarritaMs.toFixed(1)} | ` +
        `${(r.regionMs / k).toFixed(2)}x | ${(r.regionMs / r.rawMs).toFixed(2)}x | ${(r.regionMs / r.zarritaMs).toFixed(2)}x |`,
    );
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { reps: { type: "string", default: "5" } } });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-regions-"));
  try {
    console.log(formatRegions(await measureRegions(Number(values.reps), tmp)));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
