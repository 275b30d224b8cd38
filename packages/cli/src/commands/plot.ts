/** `lance-nd plot`: a 2-D slice of a variable as a heatmap PNG. */
import type { Command } from "commander";
import { NdRecordBatch } from "@lance-nd/nd-arrow";
import { parseIntAssignments } from "../args/assignments.js";
import { CliError } from "../errors.js";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { formatValue } from "../output/row-text.js";
import { plotVariable } from "../plot/plot-variable.js";
import { failing } from "../report.js";
import { readDataset } from "./one-dataset.js";
import { openTable, parseVersion } from "./open-table.js";

interface PlotOptions {
  where?: string;
  isel?: Map<string, number>;
  output?: string;
  version?: number;
  json?: boolean;
}

export function registerPlot(program: Command, io: Io): void {
  program
    .command("plot")
    .description("plot a 2-D slice of a variable as a heatmap PNG (viridis, NaN and null grey, units from the variable)")
    .argument("<table>", "the table")
    .argument("<variable>", "the variable to plot")
    .option("--where <sql>", "Lance SQL filter selecting one dataset (or its chunks, which are assembled)")
    .option("--isel <dim=index,...>", "pick an index along dims until two are left, e.g. time=0 (repeatable)", (text, prev?: Map<string, number>) =>
      parseIntAssignments(text, 0, prev),
    )
    .option("-o, --output <file>", "the PNG to write (default: <variable>.png)")
    .option("--version <n>", "read an earlier version", parseVersion)
    .option("--json", "print the summary as JSON")
    .addHelpText("after", "\nExample:\n  lance-nd plot lance-nd-demo/ocean.lance sst --where \"`__stats__:time`.min < 31\" --isel time=0 -o sst.png")
    .action((uri: string, variable: string, options: PlotOptions) =>
      failing(`cannot plot "${variable}" of ${uri}`, () => plot(io, uri, variable, options)),
    );
}

async function plot(io: Io, uri: string, variable: string, options: PlotOptions): Promise<void> {
  const table = await openTable(uri, options.version);
  if (!table.layout.arrays.has(variable)) {
    throw new CliError("InvalidArgument", `no variable "${variable}" in the table (it has ${[...table.layout.arrays.keys()].join(", ")})`, { variable });
  }
  const read = await readDataset(table, options.where, [variable]);
  // The coordinate variables of its dims label the title and orient the plot.
  const dims = read.dataset.get(variable)?.dimNames ?? [];
  const missing = dims.filter((d) => d !== variable && table.layout.arrays.has(d) && !read.dataset.has(d));
  const coords = missing.length === 0 ? [] : (await readDataset(table, options.where, missing)).dataset.arrays();
  const batch = new NdRecordBatch([...coords, ...read.dataset.arrays()], read.dataset.globalAttrs);
  const rows = read.rows;
  const output = options.output ?? `${variable}.png`;
  const summary = await plotVariable(batch, variable, options.isel ?? new Map(), output);
  if (options.json) printJson(io.stdout, { ...summary, rowsRead: rows });
  else {
    const range = summary.min === null ? "no finite values" : `values ${formatValue(summary.min)} to ${formatValue(summary.max)}`;
    println(io.stdout, `wrote ${output}: ${summary.title} (${summary.rows} x ${summary.cols}, ${range}) from ${rows} row${rows === 1 ? "" : "s"}`);
  }
}
