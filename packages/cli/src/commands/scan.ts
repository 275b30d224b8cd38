/** `lance-nd scan`: read rows, as readable lines, JSON, NDJSON or an Arrow IPC stream. */
import { InvalidArgumentError } from "commander";
import type { Command } from "commander";
import type { Schema } from "apache-arrow";
import { scan } from "lance-nd";
import type { NdTable } from "lance-nd";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { CliError } from "../errors.js";
import type { Io } from "../io.js";
import { writeArrowStream } from "../output/arrow-stream.js";
import { writeRowJson } from "../output/row-json.js";
import { rowLine } from "../output/row-text.js";
import { SinkWriter } from "../output/sink-writer.js";
import { userRow } from "../output/user-attrs.js";
import { failing } from "../report.js";
import { hasSelection, selectionOptions, type SelectionOptions } from "../args/selection.js";
import { regionRows } from "../datasets/read-region.js";
import { BRANCH_HELP, openTable, parseVersionOrTag, type TableFlags, VERSION_HELP } from "../args/open-table.js";
import { storageOptionFlag } from "../args/storage-options.js";

interface ScanOptions extends SelectionOptions, TableFlags {
  project?: string[];
  where?: string;
  limit?: number;
  json?: boolean;
  ndjson?: boolean;
  arrow?: boolean;
  timeNumbers?: boolean;
  allAttrs?: boolean;
}

export function registerScan(program: Command, io: Io): void {
  selectionOptions(program.command("scan"))
    .description(
      "read rows: one line per row (global attributes, arrays with type, dims and first values), or JSON / NDJSON / Arrow",
    )
    .argument("<table>", "the table")
    .option("--project <names>", "only these variables, comma-separated (global attributes always come)", (text) =>
      text.split(",").map((s) => s.trim()),
    )
    .option("--where <sql>", 'filter, e.g. "__global_attrs__.id = \'a.nc\'" or "__stats__:sst.max > 30"')
    .option("--limit <n>", "at most n rows", parseLimit)
    .option("--version <n|tag>", VERSION_HELP, parseVersionOrTag)
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .option("--json", "all rows as one JSON array (values included)")
    .option("--ndjson", "one JSON object per row and line")
    .option("--arrow", "the rows nd-arrow encoded, as an Arrow IPC stream on stdout")
    .option("--all-attrs", "show the storage attributes too (_DimOrder, _Format, ...; --arrow always has them)")
    .option(
      "--time-numbers",
      "times as numbers instead of dates like 2001-03-15T00:00:00Z: timestamps as epoch milliseconds, CF times as stored (in their units)",
    )
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  lance-nd scan lance-nd-demo/ocean.lance --limit 3",
        '  lance-nd scan data/ocean.lance --project sst --where "__stats__:sst.max > 30" --json',
        "  lance-nd scan lance-nd-demo/ocean.lance --project sst --isel time=0:2 --sel lat=-10:10  # one block per chunk touched",
        "  lance-nd scan data/ocean.lance --arrow > rows.arrows",
      ].join("\n"),
    )
    .action((uri: string, options: ScanOptions) => failing(`cannot scan ${uri}`, () => scanTable(io, uri, options)));
}

async function scanTable(io: Io, uri: string, options: ScanOptions): Promise<void> {
  const formats = [options.json, options.ndjson, options.arrow].filter(Boolean).length;
  if (formats > 1) throw new CliError("InvalidArgument", "--json, --ndjson and --arrow go one at a time");
  if (options.arrow && options.timeNumbers) {
    throw new CliError("InvalidArgument", "--time-numbers is for text and JSON: --arrow keeps the stored values");
  }
  if (options.arrow && io.stdout.isTTY === true) {
    throw new CliError("InvalidArgument", "--arrow writes binary Arrow IPC: redirect it to a file or a pipe");
  }
  const table = await openTable(uri, options, io);
  let query = scan(table);
  if (options.project !== undefined) query = query.project(options.project);
  if (options.where !== undefined) query = query.filter(options.where);
  if (options.limit !== undefined) query = query.limit(options.limit);
  const read = hasSelection(options)
    ? regionRows(table, options.where, options.project, options, options.limit)
    : query;
  const rows = options.allAttrs || options.arrow ? read : shownRows(read);

  const out = new SinkWriter(io.stdout);
  if (options.arrow) {
    await writeArrowStream(out, arrowSchema(table, options.project), rows);
  } else if (options.json) {
    let count = 0;
    for await (const row of rows) {
      await out.text(count++ === 0 ? "[\n  " : ",\n  ");
      await writeRowJson(out, row, { pretty: true, level: 1, timeNumbers: options.timeNumbers });
    }
    await out.text(count === 0 ? "[]\n" : "\n]\n");
  } else {
    let index = 0;
    for await (const row of rows) {
      if (options.ndjson) {
        await writeRowJson(out, row, { pretty: false, level: 0, timeNumbers: options.timeNumbers });
        await out.text("\n");
      } else {
        await out.text(`${rowLine(row, index, options.timeNumbers)}\n`);
      }
      index++;
    }
    if (!options.ndjson) await out.text(`${index} row${index === 1 ? "" : "s"}\n`);
  }
  await out.flush();
}

/** The rows with the attributes users see (`userRow`). */
async function* shownRows(rows: AsyncIterable<NdRecordBatch>): AsyncGenerator<NdRecordBatch> {
  for await (const row of rows) yield userRow(row);
}

/** The table's nd schema, projected: the schema of every batch of `--arrow`. */
function arrowSchema(table: NdTable, project: string[] | undefined): Schema {
  const full = table.ndSchema;
  if (project === undefined) return full;
  const keep = new Set(project);
  return full.select(full.fields.filter((f) => keep.has(f.name) || f.name === "__global_attrs__").map((f) => f.name));
}

function parseLimit(text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new InvalidArgumentError("expected a number of rows (an integer >= 0)");
  return Number(text);
}
