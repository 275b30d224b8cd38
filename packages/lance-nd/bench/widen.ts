// Time of lance-nd's widen on a 32 MiB table (64 rows of 512 KiB: one
// variable `sst`, with stats), against writing the same table in the same
// run (the baseline): the in-place cast (Float32 -> Float64, the data files
// stay), and the rewrite (Int32 -> Float64 across kinds; a second widen),
// which reads, casts and writes every row again, then closes its replay
// record (one metadata-only commit; README.md, Widen): the time from the
// overwrite's commit to the widen's return is printed too. Best of REPS
// repetitions, each on a fresh table.
// Run: npm run bench:widen   (MIB=32 table size, REPS=3)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { Float32, Float64, Int32, type DataType } from "apache-arrow";
import { tableBytes } from "../src/lance/table-read.js";
import { widenTable } from "../src/widen/widen.js";
import { write } from "../src/write/write.js";

const MiB = 1024 * 1024;
const ROW_BYTES = MiB / 2;
const tableMiB = Number(process.env.MIB ?? 32);
const reps = Number(process.env.REPS ?? 3);

function row(i: number, type: DataType): NdRecordBatch {
  const n = ROW_BYTES / 4;
  const values = type.typeId === new Int32().typeId ? new Int32Array(n) : new Float32Array(n);
  for (let j = 0; j < n; j++) values[j] = (i * 7919 + j * 104729) % 100_000;
  return new NdRecordBatch({ sst: NdArray.from(values, { dims: { x: n } }) }, { id: `r${i}` });
}

async function timed(
  dir: string,
  type: DataType,
  to: DataType,
): Promise<{ write: number; widen: number; afterOverwrite: number; diskMiB: number }> {
  const rows = Array.from({ length: (tableMiB * MiB) / ROW_BYTES }, (_, i) => row(i, type));
  const uri = path.join(dir, `t${Math.random().toString(36).slice(2)}.lance`);
  let start = performance.now();
  const table = await write(uri, rows, { stats: true });
  const writeSeconds = (performance.now() - start) / 1000;
  start = performance.now();
  let overwritten = Number.NaN;
  await widenTable(table, "sst", to, {
    afterStep: async (step) => {
      if (step === "overwrite") overwritten = performance.now();
    },
  });
  const end = performance.now();
  return {
    write: writeSeconds,
    widen: (end - start) / 1000,
    afterOverwrite: (end - overwritten) / 1000,
    diskMiB: (await tableBytes(table.lance)) / MiB,
  };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-widen-bench-"));
try {
  for (const [name, from, to] of [
    ["in place, Float32 -> Float64", new Float32(), new Float64()],
    ["rewrite, Int32 -> Float64", new Int32(), new Float64()],
  ] as const) {
    let best = { write: Infinity, widen: Infinity, afterOverwrite: Number.NaN, diskMiB: 0 };
    for (let r = 0; r < reps; r++) {
      const t = await timed(dir, from, to);
      best = {
        write: Math.min(best.write, t.write),
        widen: Math.min(best.widen, t.widen),
        afterOverwrite: Number.isNaN(best.afterOverwrite)
          ? t.afterOverwrite
          : Math.min(best.afterOverwrite, t.afterOverwrite),
        diskMiB: t.diskMiB,
      };
    }
    const closing = Number.isNaN(best.afterOverwrite)
      ? ""
      : `, of it after the overwrite (closing the replay record) ${(best.afterOverwrite * 1000).toFixed(0)} ms`;
    console.log(
      `${name}: ${tableMiB} MiB table, widen ${best.widen.toFixed(3)} s (${(tableMiB / best.widen).toFixed(0)} MiB/s of old values), ` +
        `write of the table ${best.write.toFixed(3)} s, ratio widen/write ${(best.widen / best.write).toFixed(2)}${closing}, ${best.diskMiB.toFixed(0)} MiB on disk after`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
