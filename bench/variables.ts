/**
 * Wide tables: how scans, `variables` and `open` grow with the number of
 * variables. For 1,000 / 2,000 / 4,000 variables (Float32 [4] each, one
 * attribute, stats on, 8 rows), it writes a table with lance-nd and times,
 * best of N, the two scans interleaved: lancedb's own scan (`query()`, no `select`: the baseline),
 * lance-nd's full `scan`, `variables` and `open`; then a projection of
 * 10 variables: lance-nd's `project` against lancedb's `select` of the same
 * names as a list. Prints each time, its ratio to lancedb's scan and its
 * time per 1,000 variables (flat = linear), and lance-nd's own work in its
 * scan timed alone: the Arrow bridge and the nd decode of the batches
 * lancedb's scan returned.
 *
 *   npx --yes pnpm@12.21.0 bench --variables            # best of 3
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { connect } from "@lancedb/lancedb";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { decodeRows } from "@lance-nd/format";
import type { RecordBatch } from "apache-arrow";
import { open, scan, variables, write } from "lance-nd";
import { fromSdkBatch } from "lance-nd/internal";
import { best } from "./measure.js";

/** The variable counts measured. */
export const VARIABLE_COUNTS = [1000, 2000, 4000];
const ROWS = 8;

interface Line {
  variables: number;
  writeMs: number;
  lancedbScanMs: number;
  scanMs: number;
  ownMs: number;
  variablesMs: number;
  openMs: number;
  projectMs: number;
  lancedbSelectMs: number;
}

/** The variables a projection reads. */
const PROJECTED = Array.from({ length: 10 }, (_, i) => `v${i * 7}`);

function rows(count: number): NdRecordBatch[] {
  return Array.from(
    { length: ROWS },
    (_, r) =>
      new NdRecordBatch(
        Object.fromEntries(
          Array.from({ length: count }, (_, v) => [
            `v${v}`,
            NdArray.from(new Float32Array([r, v, r + v, 1]), { dims: { x: 4 }, attrs: { units: "K" } }),
          ]),
        ),
        { id: `r${r}` },
      ),
  );
}

/** Runs the wide-table benchmark and prints its table. */
export async function benchVariables(reps: number): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-bench-vars-"));
  const loadStart = os.loadavg()[0]!;
  const lines: Line[] = [];
  try {
    for (const count of VARIABLE_COUNTS) {
      const uri = path.join(tmp, `vars${count}.lance`);
      const data = rows(count);
      const started = performance.now();
      const table = await write(uri, data, { stats: true });
      const writeMs = performance.now() - started;
      const raw = await (await connect(tmp)).openTable(`vars${count}`);
      const lancedbScan = async (): Promise<void> => {
        let read = 0;
        for await (const batch of raw.query()) read += batch.numRows;
        if (read !== ROWS) throw new Error(`variables bench: lancedb read ${read} rows`);
      };
      const ndScan = async (): Promise<void> => {
        let read = 0;
        for await (const row of scan(table)) {
          if (row.arrays().length !== count)
            throw new Error(`variables bench: a row of ${row.arrays().length} arrays, not ${count}`);
          read++;
        }
        if (read !== ROWS) throw new Error(`variables bench: lance-nd read ${read} rows`);
      };
      // Interleaved, so a burst of load hits both; one warm-up run each first.
      let lancedbScanMs = Infinity;
      let scanMs = Infinity;
      for (let rep = 0; rep <= reps; rep++) {
        const a = performance.now();
        await lancedbScan();
        const b = performance.now();
        await ndScan();
        const c = performance.now();
        if (rep > 0) {
          lancedbScanMs = Math.min(lancedbScanMs, b - a);
          scanMs = Math.min(scanMs, c - b);
        }
      }
      // lance-nd's own work in its scan: the bridge to its Arrow instance and the nd decode.
      const read: RecordBatch[] = [];
      for await (const batch of raw.query()) read.push(batch as RecordBatch);
      const ownMs = await best(reps, async () => read.map((batch) => decodeRows(fromSdkBatch(batch))), { warm: true });
      const variablesMs = await best(
        reps,
        async () => {
          if ((await variables(await open(uri))).length !== count)
            throw new Error("variables bench: wrong variable count");
        },
        { warm: true },
      );
      const openMs = await best(reps, async () => open(uri), { warm: true });
      const projectMs = await best(reps, async () => (await scan(table).project(PROJECTED).toArray()).length, {
        warm: true,
      });
      const lancedbSelectMs = await best(reps, async () => raw.query().select(PROJECTED).toArrow(), { warm: true });
      raw.close();
      lines.push({
        variables: count,
        writeMs,
        lancedbScanMs,
        scanMs,
        ownMs,
        variablesMs,
        openMs,
        projectMs,
        lancedbSelectMs,
      });
      console.log(
        `  ${count} variables: write ${writeMs.toFixed(0)} ms, lancedb scan ${lancedbScanMs.toFixed(0)} ms, lance-nd scan ${scanMs.toFixed(0)} ms`,
      );
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const per1000 = (ms: number, count: number) => ((ms / count) * 1000).toFixed(0);
  console.log(
    `\nwide tables: ${ROWS} rows of Float32 [4] per variable, stats on, best of ${reps}, load average ${loadStart.toFixed(1)} -> ${os.loadavg()[0]!.toFixed(1)}\n`,
  );
  console.log(
    "| variables | write ms | lancedb scan ms | lance-nd scan ms | scan / lancedb | bridge + decode ms (per 1,000 variables) | `variables` ms (with `open`) | `open` ms | scan ms per 1,000 variables | `project` of 10 ms | lancedb `select` of 10 names ms |",
  );
  console.log("| --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |");
  for (const l of lines) {
    console.log(
      `| ${l.variables} | ${l.writeMs.toFixed(0)} | ${l.lancedbScanMs.toFixed(0)} | ${l.scanMs.toFixed(0)} | ${(l.scanMs / l.lancedbScanMs).toFixed(2)}x | ${l.ownMs.toFixed(0)} (${per1000(l.ownMs, l.variables)}) | ${l.variablesMs.toFixed(0)} | ${l.openMs.toFixed(0)} | ${per1000(l.scanMs, l.variables)} | ${l.projectMs.toFixed(0)} | ${l.lancedbSelectMs.toFixed(0)} |`,
    );
  }
}
