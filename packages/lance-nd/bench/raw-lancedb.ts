// Raw lancedb 0.39 figures for the nd layout, without the nd-arrow codec:
// 256 rows of Float32 [time 4, lat 180, lon 360] (~253 MiB), deterministic.
// Write (default vs zstd encoding; three ways to hand data to the SDK), full
// scan, point read (one-step filter vs filter + takeRowIds), bytes on disk.
// Baselines measured in the same run: a memcpy of the values and the Arrow
// IPC serialisation that lancedb's `add` does internally. Best of REPS runs.
//
//   cd packages/lance-nd && npm run bench:raw   (or: node --conditions=@lance-nd/source --import tsx bench/raw-lancedb.ts)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as arrow from "apache-arrow";
import { sdkArrow, toSdkTable } from "../src/lance/arrow-bridge.js";
import { createTable, type LanceTable } from "../src/lance/table-open.js";
import { scanRows, takeRows } from "../src/lance/table-read.js";
import { appendRows } from "../src/lance/table-write.js";
import {
  batchOf,
  globalAttrsData,
  globalAttrsType,
  ndData,
  ndField,
  ndType,
  type NdRow,
} from "../test/lance/nd-rows.js";

const ROWS = 256;
const SHAPE: [string, number][] = [
  ["time", 4],
  ["lat", 180],
  ["lon", 360],
];
const PER_ROW = SHAPE.reduce((n, [, size]) => n * size, 1);
const REPS = Number(process.env.REPS ?? 3);
const MIB = 1024 * 1024;
const valueBytes = ROWS * PER_ROW * 4;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-bench-"));
let tableCount = 0;

/** A smooth field plus deterministic noise (an LCG), so zstd sees realistic floats. */
function rowValues(row: number): Float32Array {
  const values = new Float32Array(PER_ROW);
  let seed = (row + 1) * 2654435761;
  for (let i = 0; i < PER_ROW; i++) {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    const lat = Math.floor(i / 360) % 180;
    values[i] = 273 + 30 * Math.cos(((lat - 90) * Math.PI) / 180) + (seed / 2 ** 32 - 0.5);
  }
  return values;
}

function ndBatch(leafMetadata: Record<string, string>): arrow.RecordBatch {
  const sstType = ndType(new arrow.Float32(), ["units"], leafMetadata);
  const gaType = globalAttrsType(["id"]);
  const rows: NdRow[] = Array.from({ length: ROWS }, (_, r) => ({
    values: rowValues(r),
    dims: SHAPE,
    attrs: { units: "K" },
  }));
  return batchOf(
    [ndField("sst", sstType), new arrow.Field("__global_attrs__", gaType, true)],
    [
      ndData(sstType, rows),
      globalAttrsData(
        gaType,
        rows.map((_, r) => ({ id: `r${r}` })),
      ),
    ],
    { "lance_nd:format": "1" },
  );
}

async function best(label: string, run: () => Promise<unknown> | unknown, after?: () => void): Promise<number> {
  let fastest = Infinity;
  for (let i = 0; i < REPS; i++) {
    const start = performance.now();
    await run();
    fastest = Math.min(fastest, performance.now() - start);
    after?.();
  }
  if (label !== "") console.log(`  ${label.padEnd(52)} ${fastest.toFixed(1).padStart(8)} ms`);
  return fastest;
}

function rate(ms: number): number {
  return valueBytes / MIB / (ms / 1000);
}

function dataBytes(uri: string): number {
  const data = path.join(uri, "data");
  return fs.readdirSync(data).reduce((sum, f) => sum + fs.statSync(path.join(data, f)).size, 0);
}

async function emptyTable(schema: arrow.Schema): Promise<LanceTable> {
  return createTable(path.join(dir, `t${tableCount++}.lance`), schema);
}

function dropTables(): void {
  for (const entry of fs.readdirSync(dir)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
}

async function main(): Promise<void> {
  console.log(
    `lancedb raw bench: ${ROWS} rows of Float32 ${SHAPE.map(([n, s]) => `${n}=${s}`).join(" ")}, ${(valueBytes / MIB).toFixed(1)} MiB of values, best of ${REPS}`,
  );
  const batch = ndBatch({});
  const values = batch.data.children[0]!.children[0]!.children[0]!.values as Float32Array;

  console.log("baselines");
  const copyMs = await best("memcpy of the values", () => new Float32Array(values.length).set(values));
  const ipcMs = await best("Arrow IPC file serialisation (what add does)", () =>
    arrow.tableToIPC(new arrow.Table([batch]), "file"),
  );

  console.log("write: one append of all rows into an empty table");
  const results: Record<string, number> = {};
  for (const [codec, leaf] of [
    ["default", {}],
    ["zstd", { "lance-encoding:compression": "zstd", "lance-encoding:compression-level": "3" }],
  ] as const) {
    const rows = ndBatch(leaf);
    const ms = await best(
      `${codec}: appendRows (Table of lancedb's arrow)`,
      async () => appendRows(await emptyTable(rows.schema), rows),
      dropTables,
    );
    results[codec] = ms;
    const table = await emptyTable(rows.schema);
    await appendRows(table, rows);
    console.log(
      `  ${codec}: bytes on disk ${(dataBytes(table.uri) / MIB).toFixed(1)} MiB (${((100 * dataBytes(table.uri)) / valueBytes).toFixed(1)} % of values)`,
    );
    dropTables();
  }
  const esmMs = await best(
    "default: table.add(ESM Table) (SDK converts it)",
    async () => (await emptyTable(batch.schema)).sdk.add(new arrow.Table([batch])),
    dropTables,
  );
  const privateMs = await best(
    "default: private native add(IPC bytes)",
    async () => {
      const table = await emptyTable(batch.schema);
      const ipc = Buffer.from(sdkArrow().tableToIPC(toSdkTable(batch), "file"));
      await (table.sdk as unknown as { inner: { add(buf: Buffer, mode: string): Promise<unknown> } }).inner.add(
        ipc,
        "append",
      );
    },
    dropTables,
  );

  const table = await emptyTable(batch.schema);
  await appendRows(table, batch);
  console.log("read");
  const scanMs = await best("full scan, scanRows (ESM batches)", async () => {
    for await (const b of scanRows(table)) void b.numRows;
  });
  const rawScanMs = await best("full scan, sdk query().toArrow()", () => table.sdk.query().toArrow());
  const ids = [0, 77, 128, 255].map((r) => `r${r}`);
  const oneStep = await best("", async () => {
    for (const id of ids)
      for await (const b of scanRows(table, { filter: `__global_attrs__.id = '${id}'` })) void b.numRows;
  });
  const twoStep = await best("", async () => {
    for (const id of ids) {
      const rowIds: bigint[] = [];
      for await (const b of scanRows(table, {
        columns: ["__global_attrs__"],
        filter: `__global_attrs__.id = '${id}'`,
        withRowId: true,
      })) {
        rowIds.push(...(b.getChild("_rowid")!.toArray() as BigUint64Array));
      }
      await takeRows(table, rowIds);
    }
  });
  console.log(
    `  point read, one-step where (per row)                  ${(oneStep / ids.length).toFixed(1).padStart(8)} ms`,
  );
  console.log(
    `  point read, filter + takeRowIds (per row)             ${(twoStep / ids.length).toFixed(1).padStart(8)} ms`,
  );

  console.log("summary (MiB/s of values; ratio to memcpy)");
  const line = (label: string, ms: number) =>
    console.log(`  ${label.padEnd(40)} ${rate(ms).toFixed(0).padStart(7)} MiB/s  ${(copyMs / ms).toFixed(3)}x`);
  line("memcpy", copyMs);
  line("IPC serialisation", ipcMs);
  line("write default (appendRows)", results.default!);
  line("write zstd (appendRows)", results.zstd!);
  line("write default (ESM Table to add)", esmMs);
  line("write default (private IPC add)", privateMs);
  line("full scan (scanRows)", scanMs);
  line("full scan (sdk toArrow)", rawScanMs);
  console.log(`  point read: filter + takeRowIds is ${(oneStep / twoStep).toFixed(1)}x faster than one-step where`);
}

try {
  await main();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
