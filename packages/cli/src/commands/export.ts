/** `lance-nd export`: one dataset of a table to a netCDF-4 file. */
import { InvalidArgumentError } from "commander";
import type { Command } from "commander";
import { cfEncode } from "@lance-nd/cf";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { writeNetcdf } from "@lance-nd/netcdf";
import type { WriteCompression } from "@lance-nd/netcdf";
import { parseIntAssignments } from "../args/assignments.js";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { failing } from "../report.js";
import { hasSelection, selectionOptions, type SelectionOptions } from "../args/selection.js";
import { tableCfMode } from "./import-guard.js";
import { cfOptions } from "./import-plan.js";
import { readDataset } from "./one-dataset.js";
import { readRegion } from "./read-region.js";
import { BRANCH_HELP, openTable, parseVersion } from "./open-table.js";

interface ExportOptions extends SelectionOptions {
  where?: string;
  project?: string[];
  version?: number;
  compression?: WriteCompression;
  chunks?: Map<string, number>;
  branch?: string;
  json?: boolean;
}

export function registerExport(program: Command, io: Io): void {
  selectionOptions(program
    .command("export"))
    .description("write one dataset (a row, or the chunks of one dataset assembled) to a netCDF-4 file, as it was imported")
    .argument("<table>", "the table")
    .argument("<out>", "the netCDF file to write (replaced if it exists)")
    .option("--where <sql>", "Lance SQL filter selecting the rows of one dataset, e.g. \"__global_attrs__.id = 'ocean.nc'\"")
    .option("--project <names>", "only these variables, comma-separated", (text) => text.split(",").map((s) => s.trim()))
    .option("--version <n>", "read an earlier version of the table", parseVersion)
    .option("--compression <codec>", "compression of every variable: none, deflate or deflate:<level> (default: as imported)", parseNetcdfCompression)
    .option("--chunks <dim=size,...>", "HDF5 chunk sizes, e.g. time=1,lat=90 (default: as imported)", (text, prev?: Map<string, number>) => parseIntAssignments(text, 1, prev))
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

/** `none`, `deflate` or `deflate:<level>` (1..9). */
function parseNetcdfCompression(text: string): WriteCompression {
  const m = /^(none|deflate)(?::(\d))?$/.exec(text.trim());
  if (m === null || (m[1] === "none" && m[2] !== undefined) || (m[2] !== undefined && Number(m[2]) < 1)) {
    throw new InvalidArgumentError("expected none, deflate or deflate:<level 1..9>");
  }
  return m[1] === "none" ? { codec: "none" } : { codec: "deflate", ...(m[2] === undefined ? {} : { level: Number(m[2]) }) };
}

async function exportDataset(io: Io, uri: string, out: string, options: ExportOptions): Promise<void> {
  const table = await openTable(uri, options.version, options.branch);
  const read = hasSelection(options)
    ? await readRegion(table, options.where, options.project, options)
    : await readDataset(table, options.where, options.project);
  const selected = options.project === undefined ? read.dataset : read.dataset.select(options.project);
  const dataset = asStored(selected, cfOptions(tableCfMode(table)));
  const rows = read.rows;
  await writeNetcdf(out, dataset, {
    ...(options.compression === undefined ? {} : { compression: options.compression }),
    ...(options.chunks === undefined ? {} : { chunks: Object.fromEntries(options.chunks) }),
  });
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

/** The dataset as the file stored it: the CF decoding of the import undone, without the `id` that import added. */
function asStored(dataset: NdRecordBatch, cf: ReturnType<typeof cfOptions>): NdRecordBatch {
  const arrays = dataset.arrays().map(([name, array]) => [name, cfEncode(array, { ...cf, name })] as const);
  return dataset.withArrays(arrays).withGlobalAttrs(new Map([...dataset.globalAttrs].filter(([key]) => key !== "id")));
}
