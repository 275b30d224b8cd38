/** `lance-nd plot`: a 2-D slice of a variable as a heatmap PNG. */
import type { Command } from "commander";
import { NdRecordBatch } from "@lance-nd/nd-arrow";
import { selectionOptions, type SelectionOptions } from "../args/selection.js";
import { CliError } from "../errors.js";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { formatValue } from "../output/row-text.js";
import { plotVariable } from "../plot/plot-variable.js";
import { failing } from "../report.js";
import { readDataset } from "../datasets/one-dataset.js";
import { BRANCH_HELP, openTable, parseVersionOrTag, type TableFlags, VERSION_HELP } from "../args/open-table.js";
import { storageOptionFlag } from "../args/storage-options.js";

interface PlotOptions extends SelectionOptions, TableFlags {
  where?: string;
  output?: string;
  json?: boolean;
}

export function registerPlot(program: Command, io: Io): void {
  selectionOptions(program.command("plot"))
    .description(
      "plot a 2-D slice of a variable as a heatmap PNG (viridis, NaN and null grey, units from the variable), or a 1-D one as a line",
    )
    .argument("<table>", "the table")
    .argument("<variable>", "the variable to plot")
    .option("--where <sql>", "Lance SQL filter selecting one dataset (or its chunks, which are assembled)")
    .option("-o, --output <file>", "the PNG to write (default: <variable>.png)")
    .option("--version <n|tag>", VERSION_HELP, parseVersionOrTag)
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .option("--json", "print the summary as JSON")
    .addHelpText(
      "after",
      [
        "",
        "Pick single indices or values (--isel time=0, --sel time=2000-01-15) until two dims (a map) or one (a line) are left.",
        "",
        "Examples:",
        "  lance-nd plot lance-nd-demo/ocean.lance sst --isel time=0 -o sst.png",
        '  lance-nd plot lance-nd-demo/ocean.lance sst --where "__stats__:time.min < 31" --isel time=0 --sel lat=-60:60 -o tropics.png',
      ].join("\n"),
    )
    .action((uri: string, variable: string, options: PlotOptions) =>
      failing(`cannot plot "${variable}" of ${uri}`, () => plot(io, uri, variable, options)),
    );
}

async function plot(io: Io, uri: string, variable: string, options: PlotOptions): Promise<void> {
  const table = await openTable(uri, options, io);
  if (!table.layout.arrays.has(variable)) {
    throw new CliError(
      "InvalidArgument",
      `no variable "${variable}" in the table (it has ${[...table.layout.arrays.keys()].join(", ")})`,
      { variable },
    );
  }
  const read = await readDataset(table, options.where, [variable], options);
  // The coordinate variables of its dims label the title and orient the plot.
  const single = [...(options.isel ?? []), ...(options.sel ?? [])].filter(([, v]) => !Array.isArray(v));
  const picked = new Map(single.map(([dim, v]) => [dim, String(v)]));
  const dims = [...(read.dataset.get(variable)?.dimNames ?? []), ...picked.keys()];
  const missing = dims.filter((d) => d !== variable && table.layout.arrays.has(d) && !read.dataset.has(d));
  const coordinates = missing.length === 0 ? undefined : await readDataset(table, options.where, missing, options);
  const coords = coordinates?.dataset.arrays() ?? [];
  const batch = new NdRecordBatch([...coords, ...read.dataset.arrays()], read.dataset.globalAttrs);
  const rows = read.rows;
  const output = options.output ?? `${variable}.png`;
  const summary = await plotVariable(batch, variable, new Map(), output, picked);
  if (options.json) printJson(io.stdout, { ...summary, rowsRead: rows });
  else {
    const range =
      summary.min === null ? "no finite values" : `values ${formatValue(summary.min)} to ${formatValue(summary.max)}`;
    println(
      io.stdout,
      `wrote ${output}: ${summary.title} (${summary.rows === null ? `a line along ${summary.cols}` : `${summary.rows} x ${summary.cols}`}, ${range}) from ${rows} row${rows === 1 ? "" : "s"}`,
    );
  }
}
