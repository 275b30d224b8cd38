// A child of the scan memory test: opens a table, notes its RSS, scans it
// with the given limits (keeping only the current row, checking one value of
// each) and prints one JSON line: rows read and the peak RSS above the
// baseline in MiB, sampled every 2 ms and at every row.
import { open, scan } from "lance-nd";
import { MiB, bigValue } from "../helpers/big-rows.js";

interface Args {
  uri: string;
  batchSizeBytes?: number;
  readahead?: number;
  limit?: number;
}

const args = JSON.parse(process.argv[2]!) as Args;
const table = await open(args.uri);
const baseline = process.memoryUsage.rss();
let peak = baseline;
const sample = (): void => {
  peak = Math.max(peak, process.memoryUsage.rss());
};
const timer = setInterval(sample, 2);
let query = scan(table);
if (args.batchSizeBytes !== undefined) query = query.batchSizeBytes(args.batchSizeBytes);
if (args.readahead !== undefined) query = query.batchReadahead(args.readahead);
if (args.limit !== undefined) query = query.limit(args.limit);
let rows = 0;
for await (const row of query) {
  const i = Number(String(row.globalAttr("id")).slice(1));
  const values = row.get("v")!.values;
  const last = values.length - 1;
  if (values.get(0) !== bigValue(i, 0) || values.get(last) !== bigValue(i, last))
    throw new Error(`row ${i}: wrong values`);
  rows++;
  sample();
}
clearInterval(timer);
process.stdout.write(`${JSON.stringify({ rows, peakMiB: Math.round((peak - baseline) / MiB) })}\n`);
