/**
 * The scale run of the library alone: writes `sizeMiB` of generated rows
 * (1 MiB of Float32 each: the bench's smooth field plus noise, made one row
 * at a time, never kept) with an NdWriter, then scans them all back, summing
 * every value. Reports MiB/s of each and the peak RSS of each phase above the
 * process's baseline (Linux VmHWM, reset between the phases), against the
 * NdWriter bound and the scan bound of packages/lance-nd/README.md.
 *
 *   npx --yes pnpm@12.21.0 bench --scale 4096      # 4 GiB (several minutes)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { seededRandom } from "@lance-nd/test-helpers";
import { NdWriter, scan } from "lance-nd";
import { peakRss, resetPeak } from "./measure.js";

const MiB = 2 ** 20;
const ROW_VALUES = MiB / 4;

/** Row `i`: `sst` Float32 [512, 512] and the global attribute `id`. */
function row(i: number): NdRecordBatch {
  const values = new Float32Array(ROW_VALUES);
  const noise = seededRandom(i);
  for (let j = 0; j < ROW_VALUES; j++) values[j] = 280 + 20 * Math.cos((j >> 9) / 163) + (noise() - 0.5) / 4;
  return new NdRecordBatch({ sst: NdArray.from(values, { dims: { lat: 512, lon: 512 } }) }, { id: `row-${i}` });
}

/** Runs the scale run and prints its figures. */
export async function benchScale(sizeMiB: number): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-bench-scale-"));
  const uri = path.join(tmp, "scale.lance");
  const loadStart = os.loadavg()[0]!;
  try {
    console.log(`lance-nd scale run: ${sizeMiB} MiB in rows of 1 MiB; table under ${tmp}`);
    const baseline = process.memoryUsage.rss();
    resetPeak();
    let started = performance.now();
    const writer = await NdWriter.create(uri);
    for (let i = 0; i < sizeMiB; i++) {
      await writer.write(row(i));
      if ((i + 1) % 512 === 0)
        console.log(`  wrote ${i + 1} MiB, ${((i + 1) / ((performance.now() - started) / 1000)).toFixed(1)} MiB/s`);
    }
    const table = await writer.finish();
    const writeS = (performance.now() - started) / 1000;
    const writePeak = peakRss() - baseline;
    const versions = await table.version();
    const scanBaseline = process.memoryUsage.rss();
    resetPeak();
    started = performance.now();
    let rows = 0;
    let sum = 0;
    for await (const r of scan(table)) {
      const values = r.get("sst")!.values.toArray() as Float32Array;
      for (let j = 0; j < values.length; j++) sum += values[j]!;
      rows++;
    }
    const scanS = (performance.now() - started) / 1000;
    const scanPeak = peakRss() - scanBaseline;
    if (rows !== sizeMiB || !(sum / (rows * ROW_VALUES) > 250 && sum / (rows * ROW_VALUES) < 310))
      throw new Error(`scale run: read ${rows} rows, mean ${sum / (rows * ROW_VALUES)}`);
    const disk = fs
      .readdirSync(path.join(uri, "data"))
      .reduce((n, f) => n + fs.statSync(path.join(uri, "data", f)).size, 0);
    console.log(
      `\nscale run, ${sizeMiB} MiB, ${new Date().toISOString().slice(0, 10)}, load average ${loadStart.toFixed(1)} -> ${os.loadavg()[0]!.toFixed(1)}\n`,
    );
    console.log("| phase | time s | MiB/s | peak RSS above baseline | notes |");
    console.log("| --- | --: | --: | --: | --- |");
    console.log(
      `| write (NdWriter, defaults) | ${writeS.toFixed(1)} | ${(sizeMiB / writeS).toFixed(1)} | +${(writePeak / MiB).toFixed(0)} MiB | ${versions} versions, ${(disk / MiB).toFixed(0)} MiB of data files |`,
    );
    console.log(
      `| scan (defaults), summing every value | ${scanS.toFixed(1)} | ${(sizeMiB / scanS).toFixed(1)} | +${(scanPeak / MiB).toFixed(0)} MiB | ${rows} rows checked |`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
