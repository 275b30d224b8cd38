/** `lance-nd export`: one dataset of a table to a netCDF-4 file. */
import type { Command } from "commander";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { writeNetcdf4 } from "../netcdf/write.js";
import { failing } from "../report.js";
import { hasSelection, selectionOptions, type SelectionOptions } from "../args/selection.js";
import { readDataset } from "./one-dataset.js";
import { readRegion } from "./read-region.js";
import { BRANCH_HELP, openTable, parseVersion } from "./open-table.js";

interface ExportOptions extends SelectionOptions {
  where?: string;
  project?: string[];
  version?: number;
  branch?: string;
  json?: boolean;
}

export function registerExport(program: Command, io: Io): void {
  selectionOptions(program
    .command("export"))
    .description("write one dataset (a row, or the chunks of one dataset assembled) to a netCDF-4 file")
    .argument("<table>", "the table")
    .argument("<out>", "the netCDF file to write (replaced if it exists)")
    .option("--where <sql>", "Lance SQL filter selecting the rows of one dataset, e.g. \"__global_attrs__.id = 'ocean.nc'\"")
    .option("--project <names>", "only these variables, comma-separated", (text) => text.split(",").map((s) => s.trim()))
    .option("--version <n>", "read an earlier version of the table", parseVersion)
    .option("--branch <name>", BRANCH_HELP)
    .option("--json", "print the summary as JSON")
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  lance-nd export data/ocean.lance sst.nc --where \"__global_attrs__.id = 'sst-2000.nc'\"  # then: ncdump -h sst.nc",
        "  lance-nd export lance-nd-demo/ocean.lance window.nc --isel time=0:3 --sel lat=-30:30",
      ].join("\n"),
    )
    .action((table: string, out: string, options: ExportOptions) => failing(`cannot export ${table} to ${out}`, () => exportDataset(io, table, out, options)));
}

async function exportDataset(io: Io, uri: string, out: string, options: ExportOptions): Promise<void> {
  const table = await openTable(uri, options.version, options.branch);
  const read = hasSelection(options) ? await readRegion(table, options.where, options.project, options) : await readDataset(table, options.where, options.project);
  const dataset = options.project === undefined ? read.dataset : read.dataset.select(options.project);
  const rows = read.rows;
  await writeNetcdf4(dataset, out);
  const summary = {
    file: out,
    rows,
    variables: dataset.names(),
    grid: dataset.grid(),
    globalAttrs: [...dataset.globalAttrs.keys()],
  };
  if (options.json) printJson(io.stdout, summary);
  else {
    const grid = summary.grid.map((d) => `${d.name}=${d.size}`).join(", ");
    println(io.stdout, `wrote ${out}: ${summary.variables.length} variables on (${grid}) from ${rows} row${rows === 1 ? "" : "s"}`);
  }
}
