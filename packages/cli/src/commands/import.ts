/** `lance-nd import`: netCDF files and Zarr stores into a table, row by row (one per file or per chunk). */
import { basename } from "node:path";
import { InvalidArgumentError, Option } from "commander";
import type { Command } from "commander";
import { CASTING_MODES, type CastingMode } from "@lance-nd/format";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { concatRows } from "lance-nd";
import type { NdTable, WriteOptions } from "lance-nd";
import { parseIntAssignments } from "../args/assignments.js";
import { type SelectionOptions, selectionOptions } from "../args/selection.js";
import { parseCompression } from "../args/column-options.js";
import { encodingDefaults, encodingFlag, type EncodingOptions } from "../args/encoding.js";
import { type StorageOptionFlags, storageOptionFlag, storageOptionsOf } from "../args/storage-options.js";
import { CliError } from "../errors.js";
import type { Io } from "../io.js";
import { println, warn } from "../io.js";
import { progressBar } from "../output/progress.js";
import { failing } from "../report.js";
import {
  CF_MODE_KEY,
  DEFAULT_MAX_IMPORT_GIB,
  checkCfMode,
  checkDeclaredSize,
  existingIds,
  removingNewFolder,
  tableCfMode,
  writeClaimed,
} from "./import-guard.js";
import type { ClaimedWrite } from "./import-guard.js";
import { planConcatImport } from "./import-concat.js";
import { type ImportInterrupt, interruptible } from "./import-interrupt.js";
import { applyPlan, planTypes } from "./import-plan.js";
import { BRANCH_HELP, openTable } from "../args/open-table.js";
import { CF_MODES, type CfMode, withColumnNames } from "lance-nd/internal";
import { IMPORT_WRITE_SIZING, parseRowSize } from "./import-rows.js";
import { openSource } from "./import-source.js";
import { FetchedBytes, isUrl } from "./import-fetch.js";
import { printImportSummary } from "./import-summary.js";
import { openInputs } from "./import-concat-open.js";
import { chunkOf, groupDatasets } from "./group-datasets.js";
import { withId } from "../datasets/row-id.js";
import type { ImportSource } from "./import-source.js";

interface ImportOptions extends StorageOptionFlags, SelectionOptions, EncodingOptions {
  /** `--project`: only these variables (with their coordinates). */
  project?: string[];
  /** `--max-requests`: requests in flight to a store at a URL. */
  maxRequests?: number;
  id?: string;
  chunk?: Map<string, number>;
  mode: "create" | "append" | "overwrite" | "replace";
  /** Unset: `mask` for a new table, the table's recorded mode for append and replace. */
  cf?: CfMode;
  casting: CastingMode;
  stats: boolean;
  json?: boolean;
  branch?: string;
  wait: number | false;
  addSize?: number;
  maxSize: number;
  concat?: string;
  /** `--row-size` in bytes (unset: 1 MiB). */
  rowSize?: number;
}

export function registerImport(program: Command, io: Io): void {
  selectionOptions(program.command("import"), { layouts: false })
    .description(
      "import netCDF-3 / netCDF-4 files and Zarr v2 / v3 stores into a table: one row per file (or per chunk), every variable with its dims and attributes",
    )
    .usage("[options] <files...> <table>")
    .argument(
      "<files...>",
      "netCDF files (.nc) or Zarr stores (directories with zarr.json, .zgroup or .zarray), then the table, e.g. data/ocean.lance",
    )
    .option(
      "--id <value>",
      "the `id` global attribute of the rows (one file, or the dataset of --concat; default: the file name)",
    )
    .option("--concat <dim>", "the files as one dataset along <dim>, in the order of its coordinate (needs --id)")
    .option(
      "--chunk <dim=size,...>",
      "cut each file into chunks along dims, e.g. time=4,lat=90 (adds chunk_offset)",
      (text, prev?: Map<string, number>) => parseIntAssignments(text, 1, prev),
    )
    .option("--project <names>", "only these variables, comma-separated, with their coordinates", (text) =>
      text.split(",").filter((name) => name !== ""),
    )
    .option("--max-requests <n>", "the most requests in flight to a store at a URL (default 4)", (text) =>
      parsePositive(text),
    )
    .option(
      "--row-size <size>",
      "the most bytes of the largest variable a row holds when the import cuts a file on its storage chunks, e.g. 64KiB or 4MiB (default 1MiB)",
      parseRowSize,
    )
    .addOption(
      new Option(
        "--mode <mode>",
        "create a new table, append to one, replace the rows of the same ids, or overwrite it",
      )
        .choices(["create", "append", "replace", "overwrite"])
        .default("create"),
    )
    .addOption(
      new Option(
        "--cf <mode>",
        "CF conventions: raw values, _FillValue and missing_value as nulls (mask), values outside valid_range too (mask-range), or mask and also unpacked and CF times as timestamps (decode); default: mask, or for append and replace the table's mode",
      ).choices([...CF_MODES]),
    )
    .addOption(
      new Option("--casting <rule>", "what to do with a variable of another type than the table (numpy's casting)")
        .choices(CASTING_MODES)
        .default("no"),
    )
    .option("--no-stats", "do not keep min/max stats per variable (create / overwrite)")
    .option("--compression <codec>", "compression of new columns: none, lz4, zstd or zstd:<level>", parseCompression)
    .addOption(encodingFlag())
    .option("--branch <name>", `${BRANCH_HELP} (--mode append or replace)`)
    .addOption(storageOptionFlag())
    .option(
      "--wait <seconds>",
      "how long to wait while another import writes rows of the same id",
      parseSeconds,
      DEFAULT_WAIT_SECONDS,
    )
    .option("--no-wait", "fail at once when another import writes rows of the same id")
    .option(
      "--add-size <MiB>",
      `the size on disk of one Lance add (one version) of the import (default ${IMPORT_WRITE_SIZING.targetFragmentBytes / 2 ** 20})`,
      parseMiB,
    )
    .option(
      "--max-size <GiB>",
      `refuse a file whose variables declare more GiB of values (default ${DEFAULT_MAX_IMPORT_GIB}; unwritten chunks are fill)`,
      parseGiB,
      DEFAULT_MAX_IMPORT_GIB,
    )
    .option("--json", "print the summary as JSON")
    .addHelpText(
      "after",
      [
        "",
        "The table must not exist unless --mode append, replace or overwrite is given. Every file's header",
        "is read before anything is written; a failed create leaves no table behind. Appending a file whose",
        "id is already in the table is refused; --mode replace swaps its rows (see the README). One import",
        "writes an id at a time; Ctrl+C (SIGINT) or SIGTERM stops an import and removes what it wrote.",
        "",
        "Examples:",
        "  lance-nd import sst-2000.nc data/ocean.lance",
        "  lance-nd import --cf decode --chunk time=4 --compression zstd:3 waves-*.nc data/waves.lance  # a table keeps its --cf mode",
        "  lance-nd import waves-*.nc data/ocean.lance --mode append",
        "  lance-nd import sst-2000.nc data/ocean.lance --mode replace",
        "  lance-nd import sst.zarr data/sst-zarr.lance --chunk time=4  # a Zarr store (rows on its chunk grid without --chunk)",
      ].join("\n"),
    )
    .action((paths: string[], options: ImportOptions, command: Command) => {
      // commander takes one variadic argument, last: the table is split off here.
      const table = paths.at(-1)!;
      if (paths.length < 2)
        command.error("error: missing required argument 'table'", { code: "commander.missingArgument" });
      return interruptible(io, table, options.mode, (interrupt) =>
        failing(`cannot import into ${table}`, () =>
          removingNewFolder(table, options.mode === "create", () =>
            importFiles(io, paths.slice(0, -1), table, options, interrupt),
          ),
        ),
      );
    });
}

/** Seconds to wait for an id another import writes, by default. */
const DEFAULT_WAIT_SECONDS = 600;

function parsePositive(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1)
    throw new InvalidArgumentError("expected a whole number (1 or more)");
  return Number(text);
}

function parseSeconds(text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text.trim())) throw new InvalidArgumentError("expected a number of seconds (0 or more)");
  return Number(text);
}

function parseMiB(text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || Number(text) <= 0)
    throw new InvalidArgumentError("expected a number of MiB (more than 0)");
  return Number(text);
}

function parseGiB(text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || Number(text) <= 0)
    throw new InvalidArgumentError("expected a number of GiB (more than 0)");
  return Number(text);
}

/** `InvalidArgument` naming the ones of `ids` that the table (its latest version) has rows of: an append would double them. */
async function refuseExistingIds(table: NdTable, ids: readonly string[]): Promise<void> {
  await table.refresh();
  const present = await existingIds(table, ids);
  if (present.length > 0) {
    throw new CliError(
      "InvalidArgument",
      `${table.uri} already has rows with id ${present.map((id) => `"${id}"`).join(", ")}; use --mode replace to replace them`,
    );
  }
}

async function importFiles(
  io: Io,
  paths: readonly string[],
  uri: string,
  options: ImportOptions,
  interrupt: ImportInterrupt,
): Promise<void> {
  if (options.concat !== undefined && options.id === undefined)
    throw new CliError(
      "InvalidArgument",
      `--concat ${options.concat} makes one dataset of the files: name it with --id`,
    );
  if (options.id !== undefined && paths.length > 1 && options.concat === undefined) {
    throw new CliError(
      "InvalidArgument",
      `--id names one row set, but ${paths.length} files are given; leave it out to use the file names`,
    );
  }
  if (options.branch !== undefined && (options.mode === "create" || options.mode === "overwrite")) {
    throw new CliError(
      "InvalidArgument",
      options.mode === "create"
        ? `--branch ${options.branch} with --mode create: a new table has no branches (import into main, then lance-nd branch)`
        : `--branch ${options.branch} with --mode overwrite: an overwrite writes main; use --mode replace on a branch`,
    );
  }
  const started = performance.now();
  const remote = paths.some(isUrl);
  const fetched = new FetchedBytes(io);
  // Every header first: a missing or bad file, or a type plan that fails, writes nothing.
  const files: ImportSource[] = [];
  const named = paths.map((path) => options.id ?? basename(path));
  // A file's groups are datasets of their own (CLI README, "Groups"); --concat makes one dataset of the root groups.
  const datasets =
    options.concat === undefined
      ? await groupDatasets(paths, named)
      : paths.map((path, i) => ({ path, group: undefined, id: named[i]! }));
  const ids = datasets.map((d) => d.id);
  try {
    let table: NdTable | undefined;
    if (options.mode === "append" || options.mode === "replace") table = await openTable(uri, options);
    // A table keeps the mode it was created with (CLI README, "Importing again").
    const cf = options.cf ?? (table === undefined ? "mask" : tableCfMode(table));
    if (table !== undefined) checkCfMode(table, cf);
    const reading = { maxRequests: options.maxRequests, storage: options.storageOption, fetched };
    const opened = await openInputs(datasets, options, options.concat, (d, selection) =>
      openSource(d.path, d.id, cf, chunkOf(d, options.chunk), options.rowSize, selection, reading, d.group),
    );
    files.push(...opened.files);
    checkDeclaredSize(files, options.maxSize);
    const twice = options.concat === undefined ? ids.filter((id, i) => ids.indexOf(id) !== i) : [];
    if (twice.length > 0) {
      throw new CliError(
        "InvalidArgument",
        `two files would have the id ${[...new Set(twice)].map((id) => `"${id}"`).join(", ")} (the file name); import them in separate runs or tables`,
      );
    }
    const plan = planTypes(files, options.casting);
    if (options.mode === "append" && options.concat === undefined) await refuseExistingIds(table!, ids);
    const placeFiles = () => planConcatImport(files, options.concat!, options.id!, options.mode, table);
    let concat = options.concat === undefined ? undefined : await placeFiles();
    for (const file of files) for (const w of file.warnings) warn(io, w);
    // How a file is cut is the normal path: an information line, not a warning.
    for (const file of files) if (file.notice !== undefined) println(io.stderr, `lance-nd: ${file.notice}`);
    for (const path of opened.leftOut)
      println(io.stderr, `lance-nd: ${path} left out: the selection along "${options.concat}" takes none of it`);

    const totalBytes = files.reduce((n, f) => n + f.bytes, 0);
    const progress = progressBar(io, "import", totalBytes, { fetched: remote });
    const writeOptions: WriteOptions = {
      casting: options.casting,
      ...storageOptionsOf(options),
      ...IMPORT_WRITE_SIZING,
      ...(options.addSize === undefined
        ? {}
        : { targetFragmentBytes: Math.max(1, Math.round(options.addSize * 2 ** 20)) }),
      ...encodingDefaults(options),
    };
    let rows = 0;
    let bytesDone = 0;
    const variables = new Set<string>();
    // One row at a time from every file, with progress: the write streams them (README, "Streaming").
    async function* rowsOf(file: ImportSource, id: string): AsyncGenerator<NdRecordBatch> {
      const perRow = file.bytes / file.rowCount;
      for await (const raw of file.rows()) {
        yield withId(withColumnNames(applyPlan(raw, plan, file.cf, options.casting)), id, file.globalAttrs);
        rows++;
        bytesDone += perRow;
        progress.update(Math.round(bytesDone), rows, fetched.bytes);
      }
      for (const v of file.variables) variables.add(v.name);
      await file.close();
    }
    async function* fileRows(): AsyncGenerator<NdRecordBatch> {
      if (concat !== undefined) yield* concatRows(concat.parts, options.concat!, (file) => rowsOf(file, options.id!));
      else for (const [i, file] of files.entries()) yield* rowsOf(file, ids[i]!);
    }
    let written: NdTable;
    let replaced: number;
    try {
      const createOptions = { stats: options.stats, schemaMetadata: { [CF_MODE_KEY]: cf } };
      const claimed: ClaimedWrite = {
        mode: options.mode,
        uri,
        table,
        branch: options.branch ?? null,
        ids: [...new Set(ids)],
        waitMs: options.wait === false ? 0 : options.wait * 1000,
        // Another import of these ids may have committed while this one waited for them.
        afterClaim:
          concat !== undefined && table !== undefined
            ? async () => {
                concat = await placeFiles();
                claimed.replaceWhere = concat.replaced;
              }
            : options.mode === "append"
              ? () => refuseExistingIds(table!, ids)
              : undefined,
        replaceWhere: concat?.replaced,
        options:
          options.mode === "create" || options.mode === "overwrite"
            ? { ...writeOptions, ...createOptions }
            : writeOptions,
      };
      ({ table: written, replaced } = await writeClaimed(claimed, fileRows(), interrupt));
    } finally {
      progress.stop();
    }
    const seconds = (performance.now() - started) / 1000;
    const summary = {
      table: uri,
      branch: written.branch ?? "main",
      files: paths.length - opened.leftOut.length,
      rows,
      variables: [...variables],
      cf,
      version: await written.version(),
      replacedRows: replaced,
      totalRows: await written.countRows(),
      bytesRead: totalBytes,
      bytesFetched: fetched.bytes,
      seconds,
    };
    printImportSummary(io, summary, { json: options.json, remote, replace: options.mode === "replace" });
  } finally {
    await Promise.all(files.map((f) => f.close().catch(() => {})));
  }
}
