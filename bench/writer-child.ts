/**
 * One writer process of bench/writers.ts: opens the table, appends `rows`
 * rows of 1 MiB (`<writer>-<k>`) with its own NdWriter in adds of
 * `addBytes`, and prints `{ commits, retries }`: the adds Lance committed and
 * those it refused with a commit conflict (which the writer retries), counted
 * at lancedb's `add`.
 */
import * as path from "node:path";
import { connect } from "@lancedb/lancedb";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { NdWriter, open } from "lance-nd";

interface Args {
  uri: string;
  writer: string;
  rows: number;
  addBytes: number;
}

const args = JSON.parse(process.argv[2]!) as Args;
const counts = { commits: 0, retries: 0 };
// Count at lancedb's own add (the same module instance lance-nd uses).
const probe = await (await connect(path.dirname(args.uri))).openTable(path.basename(args.uri, ".lance"));
const proto = Object.getPrototypeOf(probe) as { add: (...a: unknown[]) => Promise<unknown> };
const add = proto.add;
proto.add = async function (this: unknown, ...a: unknown[]) {
  try {
    const result = await add.apply(this, a);
    counts.commits++;
    return result;
  } catch (err) {
    if (/conflict/i.test(String(err))) counts.retries++;
    throw err;
  }
};
probe.close();

const writer = await NdWriter.append(await open(args.uri), { targetFragmentBytes: args.addBytes });
for (let k = 0; k < args.rows; k++) {
  const values = new Float32Array(2 ** 18).fill(k);
  await writer.write(
    new NdRecordBatch(
      { sst: NdArray.from(values, { dims: { lat: 512, lon: 512 } }) },
      { id: `${args.writer}-${k}`, writer: args.writer },
    ),
  );
}
await writer.finish();
process.stdout.write(`${JSON.stringify(counts)}\n`);
