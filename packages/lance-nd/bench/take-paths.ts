// The ways lancedb 0.39's Node SDK can read a few big rows of the nd layout
// (SDK-NOTES.md, section 26): takes by row id and by offset, filtered scans
// (on `_rowid`, on a key, on row addresses), `offset`/`limit` windows, with
// and without a `select` of the array column alone, one call against several
// in flight, and a full scan for the cost per byte. Rows of Float32 values
// (a smooth field plus noise, zstd level 3 as lance-nd writes them) of 1, 8
// and 32 MiB; each repetition reads rows not read in the one before. Best of
// REPS (default 5).
//
//   cd packages/lance-nd && npx tsx bench/take-paths.ts   (REPS=3 for a quick run; ONLY=<text> runs the cases whose label has it)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as arrow from "apache-arrow";
import { createTable, type LanceTable } from "../src/lance/table-open.js";
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

const MIB = 1024 * 1024;
const REPS = Number(process.env.REPS ?? 5);
const ZSTD = { "lance-encoding:compression": "zstd", "lance-encoding:compression-level": "3" };

/** A table of `rows` rows of `mib` MiB each, written in `appends` appends (one fragment each). */
interface Shape {
  mib: number;
  rows: number;
  appends: number;
  structural?: "miniblock" | "fullzip";
  /** The values' compression (default zstd 3); `none` shows what the SDK costs without Lance's decompression. */
  codec?: "none" | "lz4";
}

function rowValues(row: number, count: number): Float32Array {
  const values = new Float32Array(count);
  let seed = (row + 1) * 2654435761;
  for (let i = 0; i < count; i++) {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    values[i] = 273 + 30 * Math.cos(((i % 720) * Math.PI) / 720) + (seed / 2 ** 32 - 0.5) * 0.1;
  }
  return values;
}

function rowsBatch(shape: Shape, first: number, count: number): arrow.RecordBatch {
  const per = (shape.mib * MIB) / 4;
  const codec = shape.codec === undefined ? ZSTD : { "lance-encoding:compression": shape.codec };
  const sstType = ndType(new arrow.Float32(), ["units"], codec);
  const gaType = globalAttrsType(["id"]);
  const rows: NdRow[] = Array.from({ length: count }, (_, r) => ({
    values: rowValues(first + r, per),
    dims: [
      ["time", 1],
      ["cell", per],
    ],
    attrs: { units: "K" },
  }));
  const top: Record<string, string> =
    shape.structural === undefined ? {} : { "lance-encoding:structural-encoding": shape.structural };
  return batchOf(
    [ndField("sst", sstType, top), new arrow.Field("__global_attrs__", gaType, true)],
    [
      ndData(sstType, rows),
      globalAttrsData(
        gaType,
        rows.map((_, r) => ({ id: `r${first + r}` })),
      ),
    ],
    { "lance_nd:format": "1" },
  );
}

function tableKey(shape: Shape): string {
  return `${shape.mib}-${shape.structural ?? "auto"}-${shape.codec ?? "zstd"}`;
}

async function build(dir: string, shape: Shape): Promise<{ table: LanceTable; rowIds: bigint[] }> {
  const per = Math.ceil(shape.rows / shape.appends);
  let table: LanceTable | undefined;
  for (let first = 0; first < shape.rows; first += per) {
    const batch = rowsBatch(shape, first, Math.min(per, shape.rows - first));
    table ??= await createTable(path.join(dir, `t${tableKey(shape)}.lance`), batch.schema);
    await appendRows(table, batch);
  }
  const ids = await table!.sdk.query().select(["__global_attrs__"]).withRowId().toArrow();
  const rowIds = [...(ids.getChild("_rowid")!.toArray() as BigUint64Array)];
  return { table: table!, rowIds };
}

/** Best time of `REPS` runs of `read(rep)`, after one warm-up; checks that each returns `bytes` of values. */
async function best(read: (rep: number) => Promise<number>, bytes: number): Promise<number> {
  let fastest = Number.POSITIVE_INFINITY;
  for (let rep = -1; rep < REPS; rep++) {
    const start = performance.now();
    const got = await read(rep + 1);
    const ms = performance.now() - start;
    if (got !== bytes) throw new Error(`read ${got} bytes, expected ${bytes}`);
    if (rep >= 0) fastest = Math.min(fastest, ms);
  }
  return fastest;
}

/** Bytes of Float32 values in an SDK table of `sst` (nested path `sst.values` or the whole struct). */
function valueBytes(table: { numRows: number; getChild(name: string): unknown; batches: unknown[] }): number {
  let bytes = 0;
  for (const batch of table.batches as { data: arrow.Data; schema: arrow.Schema }[]) {
    const at = batch.schema.fields.findIndex((f) => f.name === "sst" || f.name === "sst.values");
    const column = batch.data.children[at]!;
    const list = column.type.typeId === arrow.Type.Struct ? column.children[0]! : column;
    bytes += (list.valueOffsets[list.offset + list.length]! - list.valueOffsets[list.offset]!) * 4;
  }
  return bytes;
}

type Reader = (table: LanceTable, rowIds: readonly bigint[], rows: readonly number[]) => Promise<number>;

const SST = ["sst"];
const inList = (items: readonly (string | bigint)[]) =>
  items.map((i) => (typeof i === "string" ? `'${i}'` : String(i)));

/** The paths, each reading rows `rows` (positions) whose ids are `rowIds`. */
const PATHS: [string, Reader][] = [
  ["takeRowIds, select sst", async (t, ids) => valueBytes(await t.sdk.takeRowIds(ids).select(SST).toArrow())],
  [
    "takeRowIds, select sst.values",
    async (t, ids) => valueBytes(await t.sdk.takeRowIds(ids).select(["sst.values"]).toArrow()),
  ],
  ["takeRowIds, all columns", async (t, ids) => valueBytes(await t.sdk.takeRowIds(ids).toArrow())],
  [
    "takeOffsets, select sst",
    async (t, _, rows) =>
      valueBytes(
        await t.sdk
          .takeOffsets([...rows])
          .select(SST)
          .toArrow(),
      ),
  ],
  ["takeOffsets, all columns", async (t, _, rows) => valueBytes(await t.sdk.takeOffsets([...rows]).toArrow())],
  [
    "scan where _rowid IN, select sst",
    async (t, ids) =>
      valueBytes(
        await t.sdk
          .query()
          .where(`_rowid IN (${inList(ids)})`)
          .select(SST)
          .toArrow(),
      ),
  ],
  [
    "scan where key (id) IN, select sst",
    async (t, _, rows) =>
      valueBytes(
        await t.sdk
          .query()
          .where(`__global_attrs__.id IN (${inList(rows.map((r) => `r${r}`))})`)
          .select(SST)
          .toArrow(),
      ),
  ],
  [
    "scan where _rowaddr range, select sst",
    async (t, ids) =>
      valueBytes(
        await t.sdk
          .query()
          .where(`_rowaddr >= ${ids[0]} AND _rowaddr <= ${ids[ids.length - 1]}`)
          .select(SST)
          .toArrow(),
      ),
  ],
  [
    "scan offset/limit, select sst",
    async (t, _, rows) => valueBytes(await t.sdk.query().offset(rows[0]!).limit(rows.length).select(SST).toArrow()),
  ],
  [
    "takeRowIds one row a call, 4 in flight",
    async (t, ids) => {
      let bytes = 0;
      for (let i = 0; i < ids.length; i += 4) {
        const calls = ids
          .slice(i, i + 4)
          .map(async (id) => valueBytes(await t.sdk.takeRowIds([id]).select(SST).toArrow()));
        for (const b of await Promise.all(calls)) bytes += b;
      }
      return bytes;
    },
  ],
];

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-take-paths-"));
  const cases: { label: string; shape: Shape; take: number }[] = [
    { label: "1 row of 1 MiB", shape: { mib: 1, rows: 32, appends: 2 }, take: 1 },
    { label: "16 rows of 1 MiB", shape: { mib: 1, rows: 32, appends: 2 }, take: 16 },
    { label: "1 row of 8 MiB", shape: { mib: 8, rows: 6, appends: 2 }, take: 1 },
    { label: "1 row of 8 MiB, fullzip", shape: { mib: 8, rows: 6, appends: 2, structural: "fullzip" }, take: 1 },
    { label: "16 rows of 1 MiB, no compression", shape: { mib: 1, rows: 32, appends: 2, codec: "none" }, take: 16 },
    { label: "16 rows of 1 MiB, lz4", shape: { mib: 1, rows: 32, appends: 2, codec: "lz4" }, take: 16 },
    {
      label: "16 rows of 1 MiB, fullzip",
      shape: { mib: 1, rows: 32, appends: 2, structural: "fullzip" },
      take: 16,
    },
    { label: "1 row of 32 MiB", shape: { mib: 32, rows: 3, appends: 1 }, take: 1 },
  ];
  const tables = new Map<string, { table: LanceTable; rowIds: bigint[] }>();
  try {
    console.log(`take paths, lancedb 0.39, best of ${REPS} (ms; in brackets: ms per MiB / full scan's ms per MiB)`);
    for (const { label, shape, take } of cases.filter((c) => c.label.includes(process.env.ONLY ?? ""))) {
      const key = tableKey(shape);
      if (!tables.has(key)) tables.set(key, await build(dir, shape));
      const { table, rowIds } = tables.get(key)!;
      const bytes = take * shape.mib * MIB;
      const scanMs = await best(
        async () => valueBytes(await table.sdk.query().select(SST).toArrow()),
        shape.rows * shape.mib * MIB,
      );
      const scanPerMib = scanMs / (shape.rows * shape.mib);
      console.log(
        `${label} (table ${shape.rows} rows in ${shape.appends} fragments): full scan ${scanMs.toFixed(1)} ms, ${(1024 / scanPerMib).toFixed(0)} MiB/s`,
      );
      for (const [name, read] of PATHS) {
        if (take === 1 && name.includes("in flight")) continue;
        const ms = await best((rep) => {
          const first = (rep * take) % (shape.rows - take + 1);
          const rows = Array.from({ length: take }, (_, i) => first + i);
          return read(
            table,
            rows.map((r) => rowIds[r]!),
            rows,
          );
        }, bytes);
        const ratio = ms / (take * shape.mib) / scanPerMib;
        console.log(`  ${name.padEnd(42)} ${ms.toFixed(1).padStart(8)} ms  [${ratio.toFixed(2)}x]`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
