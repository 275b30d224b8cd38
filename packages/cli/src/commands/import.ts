/** `lance-nd import`: netCDF files into a table, one row per file (or per chunk). */
import { stat as fileStat } from "node:fs/promises";
import { basename } from "node:path";
import { Option } from "commander";
import type { Command } from "commander";
import { CASTING_MODES, type CastingMode } from "@lance-nd/format";
import { attr, chunk } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { NdWriter } from "lance-nd";
import type { WriteOptions } from "lance-nd";
import { parseIntAssignments } from "../args/assignments.js";
import { parseCompression } from "../args/column-options.js";
import { CliError } from "../errors.js";
import type { Io } from "../io.js";
import { printJson, println, warn } from "../io.js";
import { readNetcdf } from "../netcdf/read.js";
import type { NetcdfContents } from "../netcdf/read.js";
import { formatBytes } from "../output/disk-size.js";
import { progressBar } from "../output/progress.js";
import { failing } from "../report.js";

interface ImportOptions {
  id?: string;
  chunk?: Map<string, number>;
  mode: "create" | "append" | "overwrite";
  casting: CastingMode;
  stats: boolean;
  compression?: ReturnType<typeof parseCompression>;
  json?: boolean;
}

export function registerImport(program: Command, io: Io): void {
  program
    .command("import")
    .description("import netCDF-3 / netCDF-4 files into a table: one row per file (or per chunk), every variable with its dims and attributes")
    .usage("[options] <files...> <table>")
    .argument("<files...>", "netCDF files (.nc), then the table, e.g. data/ocean.lance")
    .option("--id <value>", "the `id` global attribute of the rows (one file only; default: the file name)")
    .option("--chunk <dim=size,...>", "cut each file into chunks along dims, e.g. time=4,lat=90 (adds chunk_offset)", (text, prev?: Map<string, number>) =>
      parseIntAssignments(text, 1, prev),
    )
    .addOption(
      new Option("--mode <mode>", "create a new table, append to an existing one, or overwrite it").choices(["create", "append", "overwrite"]).default("create"),
    )
    .addOption(
      new Option("--casting <rule>", "what to do with a variable of another type than the table (numpy's casting)").choices(CASTING_MODES).default("no"),
    )
    .option("--no-stats", "do not keep min/max stats per variable (create / overwrite)")
    .option("--compression <codec>", "compression of new columns: none, lz4, zstd or zstd:<level>", parseCompression)
    .option("--json", "print the summary as JSON")
    .addHelpText(
      "after",
      [
        "",
        "The table must not exist unless --mode append or overwrite is given. Nothing changes in the",
        "table when a file is missing or unreadable: all files are checked and read before the commit.",
        "",
        "Examples:",
        "  lance-nd import sst-2000.nc data/ocean.lance",
        "  lance-nd import --chunk time=4 --compression zstd:3 waves-*.nc data/ocean.lance --mode append",
      ].join("\n"),
    )
    .action((paths: string[], options: ImportOptions, command: Command) => {
      // commander takes one variadic argument, last: the table is split off here.
      const table = paths.at(-1)!;
      if (paths.length < 2) command.error("error: missing required argument 'table'", { code: "commander.missingArgument" });
      return failing(`cannot import into ${table}`, () => importFiles(io, paths.slice(0, -1), table, options));
    });
}

async function importFiles(io: Io, files: readonly string[], uri: string, options: ImportOptions): Promise<void> {
  if (options.id !== undefined && files.length > 1) {
    throw new CliError("InvalidArgument", `--id names one row set, but ${files.length} files are given; leave it out to use the file names`);
  }
  // Every file must exist before anything is written.
  const sizes = await Promise.all(files.map((path) => fileSize(path)));
  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  const started = performance.now();
  const progress = progressBar(io, "import", totalBytes);

  // The first file is read before the writer starts, so a bad file never creates a table.
  let next: Promise<NetcdfContents> = readNetcdf(files[0]!);
  const writeOptions: WriteOptions = {
    casting: options.casting,
    ...(options.compression === undefined ? {} : { columnDefaults: { compression: options.compression } }),
  };
  let writer: NdWriter | undefined;
  let rows = 0;
  let bytesDone = 0;
  const variables = new Set<string>();
  try {
    for (let i = 0; i < files.length; i++) {
      const path = files[i]!;
      const { batch, warnings } = await next;
      if (i + 1 < files.length) next = readNetcdf(files[i + 1]!);
      // Reads ahead one file while this one is written; an error of the next read surfaces at its turn.
      next.catch(() => {});
      for (const w of warnings) warn(io, w);
      writer ??= await NdWriter.create(uri, { ...writeOptions, mode: options.mode, ...(options.mode === "append" ? {} : { stats: options.stats }) });
      for (const row of toRows(batch, path, options)) {
        await writer.write(row);
        rows++;
      }
      for (const name of batch.names()) variables.add(name);
      bytesDone += sizes[i]!;
      progress.update(bytesDone, rows);
    }
    const table = await writer!.finish();
    writer = undefined;
    progress.stop();
    const seconds = (performance.now() - started) / 1000;
    const summary = {
      table: uri,
      files: files.length,
      rows,
      variables: [...variables],
      version: await table.version(),
      totalRows: await table.countRows(),
      bytesRead: totalBytes,
      seconds,
    };
    if (options.json) printJson(io.stdout, summary);
    else {
      println(
        io.stdout,
        `imported ${files.length} file${files.length === 1 ? "" : "s"} (${formatBytes(totalBytes)}, ${variables.size} variables) as ${rows} row${rows === 1 ? "" : "s"} into ${uri} ` +
          `in ${seconds.toFixed(1)} s: version ${summary.version}, ${summary.totalRows} rows in the table`,
      );
    }
  } catch (err) {
    progress.stop();
    await writer?.abort();
    throw err;
  }
}

/** The rows of one file: the batch with its `id`, whole or in chunks. */
function toRows(batch: NdRecordBatch, path: string, options: ImportOptions): NdRecordBatch[] {
  const id = options.id ?? basename(path);
  const row = batch.withGlobalAttrs(new Map([...batch.globalAttrs, ["id", attr.utf8(id)]]));
  if (options.chunk === undefined) return [row];
  const grid = row.grid().map((d) => d.name);
  const unknown = [...options.chunk.keys()].filter((d) => !grid.includes(d));
  if (unknown.length > 0) {
    throw new CliError("InvalidArgument", `${path}: --chunk names ${unknown.join(", ")}, which the file does not have (its dims: ${grid.join(", ")})`, { path });
  }
  return chunk(row, Object.fromEntries(options.chunk));
}

async function fileSize(path: string): Promise<number> {
  try {
    const info = await fileStat(path);
    if (!info.isFile()) throw new CliError("InvalidFile", `${path}: not a file`, { path });
    return info.size;
  } catch (cause) {
    if (cause instanceof CliError) throw cause;
    if ((cause as { code?: string }).code === "ENOENT") throw new CliError("FileNotFound", `${path}: no such file`, { path, cause });
    throw new CliError("InvalidFile", `${path}: cannot read (${(cause as { code?: string }).code ?? String(cause)})`, { path, cause });
  }
}
