// A second process for test/read/detached.test.ts: reads the strip y 0-2 of
// time steps 0 to <steps> of the dataset of the table at <uri>, one row a
// take (as `rechunk` reads a slab of a time-series layout), and prints its
// own peak RSS in MiB.
// Run: node --conditions=@lance-nd/source --import tsx test/helpers/window-child.ts <uri> <steps>
import { planDataset } from "../../src/dataset/plan.js";
import { readWindow } from "../../src/dataset/read.js";
import { applyIsel, wholeGrid } from "../../src/dataset/selection.js";
import { open } from "../../src/table.js";

const [uri, steps] = process.argv.slice(2);
if (uri === undefined || steps === undefined) throw new Error("usage: window-child.ts <uri> <steps>");
const table = await open(uri);
const view = await table.checkout(await table.version());
const plan = await planDataset(view, undefined);
const ranges = applyIsel(uri, plan.grid, wholeGrid(plan.grid), { time: [0, Number(steps)], y: [0, 2] });
const window = await readWindow(view, plan, ranges, ["v", "time"], 1);
process.stdout.write(
  `${JSON.stringify({ cells: window.get("v")!.values.length, peakMiB: process.resourceUsage().maxRSS / 1024 })}\n`,
);
