// lance-nd scan against the raw SDK layer (scanRows / takeRows) on the same
// table: rows of Float32 [time 4, lat 180, lon 360] (~1 MiB each) with
// `__global_attrs__.id` and stats, 32 MiB of values by default (`--size 256`
// for 256 MiB). Full scan (lance-nd decodes every row into NdRecordBatches;
// the baseline only receives the Arrow batches) and a point read of one row
// by id (lance-nd's two-step read against the same two steps done by hand:
// the `_rowid` of the matching row, then takeRows of its columns).
// Best of REPS runs, baseline and lance-nd alternating.
//
//   cd packages/lance-nd && npm run bench:scan -- --size 256
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NdArray, NdRecordBatch, encodeSchema } from "@lance-nd/nd-arrow";
import { encodeRows, tableSchema } from "@lance-nd/format";
import { scan } from "../src/read/scan.js";
import { open } from "../src/table.js";
import { createTable } from "../src/lance/table-open.js";
import { scanRows, takeRows } from "../src/lance/table-read.js";
import { appendRows } from "../src/lance/table-write.js";

const MIB = 1024 * 1024;
const SHAPE = { time: 4, lat: 180, lon: 360 };
const PER_ROW = 4 * 180 * 360;
const sizeArg = process.argv.indexOf("--size");
const SIZE_MIB = sizeArg < 0 ? 32 : Number(process.argv[sizeArg + 1]);
const ROWS = Math.max(1, Math.round((SIZE_MIB * MIB) / (PER_ROW * 4)));
const REPS = Number(process.env.REPS ?? 5);
const IDS = [0, Math.floor(ROWS / 3), Math.floor((2 * ROWS) / 3), ROWS - 1].map((r) => `r${r}`);

/** A smooth field plus deterministic noise (an LCG). */
function row(r: number): NdRecordBatch {
  const values = new Float32Array(PER_ROW);
  let seed = (r + 1) * 2654435761;
  for (let i = 0; i < PER_ROW; i++) {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    values[i] = 273 + 30 * Math.cos(((Math.floor(i / 360) % 180) - 90) * (Math.PI / 180)) + (seed / 2 ** 32 - 0.5);
  }
  return new NdRecordBatch({ sst: NdArray.from(values, { dims: SHAPE, attrs: { units: "K" } }) }, { id: `r${r}` });
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

async function main(dir: string): Promise<void> {
  const uri = path.join(dir, "scan.lance");
  const first = [row(0)];
  const schema = tableSchema(encodeSchema(first), { stats: true });
  const lance = await createTable(uri, schema, encodeRows(first, schema, { stats: true }));
  for (let r = 1; r < ROWS; r += 16) {
    const batches = Array.from({ length: Math.min(16, ROWS - r) }, (_, i) => row(r + i));
    await appendRows(lance, encodeRows(batches, schema, { stats: true }));
  }
  const table = await open(uri);
  console.log(
    `lance-nd scan bench: ${ROWS} rows of Float32 time=4 lat=180 lon=360, ${((ROWS * PER_ROW * 4) / MIB).toFixed(0)} MiB of values, best of ${REPS}`,
  );

  const rawScan = async () => {
    let n = 0;
    for await (const b of scanRows(table.lance)) n += b.numRows;
    if (n !== ROWS) throw new Error(`raw scan read ${n} rows`);
  };
  const ndScanOf = (bytes: number) => async () => {
    let n = 0;
    for await (const batch of scan(table).batchSizeBytes(bytes)) n += batch.get("sst") === undefined ? 0 : 1;
    if (n !== ROWS) throw new Error(`lance-nd scan read ${n} rows`);
  };
  const ndScan = ndScanOf(32 * MIB);
  const ndScan8 = ndScanOf(8 * MIB);
  const rawPoint = async () => {
    for (const id of IDS) {
      const rowIds: bigint[] = [];
      for await (const b of scanRows(table.lance, { columns: ["_rowid"], filter: `__global_attrs__.id = '${id}'` })) {
        rowIds.push(...(b.getChild("_rowid")!.toArray() as BigUint64Array));
      }
      if ((await takeRows(table.lance, rowIds, ["sst", "__global_attrs__"])).reduce((n, b) => n + b.numRows, 0) !== 1)
        throw new Error("raw point read");
    }
  };
  const ndPoint = async () => {
    for (const id of IDS) {
      if ((await scan(table).filter(`__global_attrs__.id = '${id}'`).toArray()).length !== 1)
        throw new Error("lance-nd point read");
    }
  };

  const times = { rawScan: Infinity, ndScan: Infinity, ndScan8: Infinity, rawPoint: Infinity, ndPoint: Infinity };
  await rawScan(); // warm the page cache and the SDK
  await ndScan();
  for (let i = 0; i < REPS; i++) {
    times.rawScan = Math.min(times.rawScan, await timed(rawScan));
    times.ndScan = Math.min(times.ndScan, await timed(ndScan));
    times.ndScan8 = Math.min(times.ndScan8, await timed(ndScan8));
    times.rawPoint = Math.min(times.rawPoint, await timed(rawPoint));
    times.ndPoint = Math.min(times.ndPoint, await timed(ndPoint));
  }
  const mibs = (ms: number) => (ROWS * PER_ROW * 4) / MIB / (ms / 1000);
  const line = (label: string, ms: number, extra: string) =>
    console.log(`  ${label.padEnd(48)} ${ms.toFixed(1).padStart(9)} ms  ${extra}`);
  line("full scan, raw scanRows (baseline)", times.rawScan, `${mibs(times.rawScan).toFixed(0)} MiB/s`);
  line("full scan, lance-nd scan (decoded rows)", times.ndScan, `${mibs(times.ndScan).toFixed(0)} MiB/s`);
  line("full scan, lance-nd scan, batchSizeBytes 8 MiB", times.ndScan8, `${mibs(times.ndScan8).toFixed(0)} MiB/s`);
  line("point read by id, raw filter + takeRows (per row)", times.rawPoint / IDS.length, "");
  line("point read by id, lance-nd scan().filter (per row)", times.ndPoint / IDS.length, "");
  console.log("ratios (lance-nd time / baseline time; goal: scan <= 1.0, point read <= 2.0)");
  console.log(
    `  full scan   ${(times.ndScan / times.rawScan).toFixed(2)}x (batchSizeBytes 8 MiB: ${(times.ndScan8 / times.rawScan).toFixed(2)}x)`,
  );
  console.log(`  point read  ${(times.ndPoint / times.rawPoint).toFixed(2)}x`);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-scan-bench-"));
try {
  await main(dir);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
