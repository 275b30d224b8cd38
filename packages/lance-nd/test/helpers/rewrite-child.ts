// A second process for test/widen/widen-replay.test.ts: widens `sst` to Float64
// by a rewrite (or, with mode "complete", only completes a pending replay),
// and waits for the parent's kill at one step. With mode "widen" it prints
// "read" after the rewrite read the table and waits for a line on stdin, so
// the parent commits the window meanwhile. Prints the step it stops at.
// Run: node --conditions=@lance-nd/source --import tsx test/helpers/rewrite-child.ts <uri> <widen|complete> <step>
import { createInterface } from "node:readline";
import { Float64 } from "apache-arrow";
import { open } from "../../src/table.js";
import { widenTable } from "../../src/widen/widen.js";
import type { ReplayStep } from "../../src/widen/widen-replay-record.js";

const [uri, mode, stopAt] = process.argv.slice(2);
if (uri === undefined || (mode !== "widen" && mode !== "complete") || stopAt === undefined)
  throw new Error("usage: rewrite-child.ts <uri> <widen|complete> <step>");
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const table = await open(uri);
await widenTable(table, "sst", new Float64(), {
  afterRead: async () => {
    if (mode !== "widen") return;
    process.stdout.write("read\n");
    await lines.next();
  },
  afterStep: async (step: ReplayStep) => {
    if (step !== stopAt) return;
    process.stdout.write(`${step}\n`);
    await new Promise(() => setInterval(() => undefined, 1_000));
  },
});
process.stdout.write("done\n");
process.exit(0);
