// Peak memory and throughput of NdWriter writing 1 GiB (8 MiB rows of
// Float32, smooth field plus noise), in a fresh process per setting, against
// the process baseline (RSS right before the first write) and a memcpy of
// the same bytes measured in the same run.
// Run: npm run bench:writer-memory   (GIB=0.25 for a quick run, REPS=n repetitions, best kept)
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { NdWriter } from "../src/write/writer.js";

const MiB = 1024 * 1024;
const ROW_BYTES = 8 * MiB;

interface Result {
  parallelism: number;
  targetMiB: number;
  seconds: number;
  mibPerSecond: number;
  peakAboveBaselineMiB: number;
  baselineMiB: number;
  adds: number;
}

function row(i: number): NdRecordBatch {
  const values = new Float32Array(ROW_BYTES / 4);
  let noise = i + 1;
  for (let j = 0; j < values.length; j++) {
    noise = (noise * 1103515245 + 12345) & 0x7fffffff;
    values[j] = 280 + 10 * Math.sin(j / 5000) + (noise % 1000) / 1000;
  }
  return new NdRecordBatch({ sst: NdArray.from(values, { dims: { x: values.length } }) }, { id: `r${i}` });
}

async function child(parallelism: number, targetMiB: number, gib: number): Promise<Result> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-writer-bench-"));
  try {
    const rows = Math.round((gib * 1024 * MiB) / ROW_BYTES);
    const writer = await NdWriter.create(path.join(dir, "t.lance"), {
      writeParallelism: parallelism,
      targetFragmentBytes: targetMiB * MiB,
    });
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const start = performance.now();
    for (let i = 0; i < rows; i++) await writer.write(row(i));
    await writer.finish();
    const seconds = (performance.now() - start) / 1000;
    clearInterval(timer);
    return {
      parallelism,
      targetMiB,
      seconds,
      mibPerSecond: (rows * ROW_BYTES) / MiB / seconds,
      peakAboveBaselineMiB: (peak - baseline) / MiB,
      baselineMiB: baseline / MiB,
      adds: writer.versions.length,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function memcpyMiBPerSecond(gib: number): number {
  // 256 MiB of sources, so the copies come from memory, not from the cache.
  const sources = Array.from({ length: 32 }, (_, i) => new Uint8Array(ROW_BYTES).fill(i));
  const target = new Uint8Array(ROW_BYTES);
  const rows = Math.round((gib * 1024 * MiB) / ROW_BYTES);
  let best = 0;
  for (let rep = 0; rep < 3; rep++) {
    const start = performance.now();
    for (let i = 0; i < rows; i++) target.set(sources[i % sources.length]!);
    best = Math.max(best, (rows * ROW_BYTES) / MiB / ((performance.now() - start) / 1000));
  }
  return best;
}

const gib = Number(process.env.GIB ?? 1);
if (process.argv[2] === "child") {
  console.log(JSON.stringify(await child(Number(process.argv[3]), Number(process.argv[4]), gib)));
} else {
  const reps = Number(process.env.REPS ?? 1);
  const self = fileURLToPath(import.meta.url);
  const memcpy = memcpyMiBPerSecond(gib);
  console.log(`NdWriter, ${gib} GiB in ${ROW_BYTES / MiB} MiB rows; memcpy baseline ${memcpy.toFixed(0)} MiB/s`);
  // The default target (adds capped at 64 MiB of rows, one in flight), and
  // 16 MiB adds, where writeParallelism 4 runs 4 adds at once.
  for (const [parallelism, targetMiB] of [
    [1, 128],
    [4, 128],
    [1, 16],
    [4, 16],
  ] as const) {
    let best: Result | undefined;
    for (let rep = 0; rep < reps; rep++) {
      const args = [
        "--conditions=@lance-nd/source",
        "--import",
        "tsx",
        self,
        "child",
        String(parallelism),
        String(targetMiB),
      ];
      const out = execFileSync(process.execPath, args, {
        env: process.env,
        encoding: "utf8",
      });
      const result = JSON.parse(out.trim().split("\n").at(-1)!) as Result;
      if (best === undefined || result.seconds < best.seconds) best = result;
    }
    const r = best!;
    console.log(
      `target ${r.targetMiB} MiB, writeParallelism ${r.parallelism}: ${r.seconds.toFixed(1)} s, ${r.mibPerSecond.toFixed(1)} MiB/s (${(r.mibPerSecond / memcpy).toPrecision(2)}x memcpy), ` +
        `${r.adds} adds, peak RSS +${r.peakAboveBaselineMiB.toFixed(0)} MiB over a ${r.baselineMiB.toFixed(0)} MiB baseline ` +
        `(${(r.peakAboveBaselineMiB / (gib * 1024)).toFixed(2)}x the data)`,
    );
  }
}
