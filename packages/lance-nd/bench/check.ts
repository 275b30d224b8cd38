// Time of `check` on a healthy table (every manifest opened through a
// temporary view, every row taken with all its columns) against a full
// `scan` of the same table in the same run (the baseline). The table: MIB
// MiB in COMMITS appends of rows of 512 KiB (one variable `sst`, with stats),
// so it has COMMITS versions and fragments. Best of REPS repetitions.
// Run: npm run bench:check   (MIB=64, COMMITS=8, REPS=3)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { check } from "../src/check/check.js";
import { scan } from "../src/read/scan.js";
import { append, write } from "../src/write/write.js";

const MiB = 1024 * 1024;
const ROW_BYTES = MiB / 2;
const tableMiB = Number(process.env.MIB ?? 64);
const commits = Number(process.env.COMMITS ?? 8);
const reps = Number(process.env.REPS ?? 3);

function row(i: number): NdRecordBatch {
  const n = ROW_BYTES / 4;
  const values = new Float32Array(n);
  for (let j = 0; j < n; j++) values[j] = (i * 7919 + j * 104729) % 100_000;
  return new NdRecordBatch({ sst: NdArray.from(values, { dims: { x: n } }) }, { id: `r${i}` });
}

async function seconds(work: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    const start = performance.now();
    await work();
    best = Math.min(best, (performance.now() - start) / 1000);
  }
  return best;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-check-bench-"));
try {
  const rows = (tableMiB * MiB) / ROW_BYTES;
  const perCommit = Math.ceil(rows / commits);
  const uri = path.join(dir, "t.lance");
  const table = await write(
    uri,
    Array.from({ length: perCommit }, (_, i) => row(i)),
  );
  for (let c = 1; c < commits; c++)
    await append(
      table,
      Array.from({ length: perCommit }, (_, i) => row(c * perCommit + i)),
    );
  const scanned = await seconds(async () => {
    for await (const batch of scan(table)) void batch;
  });
  const checked = await seconds(() => check(uri));
  console.log(`table: ${tableMiB} MiB, ${perCommit * commits} rows of ${ROW_BYTES / 1024} KiB, ${commits} versions`);
  console.log(`full scan (baseline): ${scanned.toFixed(2)} s`);
  console.log(`check:                ${checked.toFixed(2)} s  (${(checked / scanned).toFixed(2)} x the scan)`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
