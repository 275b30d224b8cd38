/** `lance-nd export`: one dataset of a table (or, with `--groups`, a tree of them) to a netCDF file (netCDF-4 or classic) or a Zarr store. */
import { InvalidArgumentError, Option } from "commander";
import type { Command } from "commander";
import { cfEncode } from "@lance-nd/cf";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { writeNetcdfGroups } from "@lance-nd/netcdf";
import type { NetcdfFormat, WriteCompression } from "@lance-nd/netcdf";
import { parseIntAssignments } from "../args/assignments.js";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { failing } from "../report.js";
import { selectionOptions, type SelectionOptions } from "../args/selection.js";
import { sourceAttrTypes, tableCfEncoding, withSourceNames } from "lance-nd/internal";
import { readDataset } from "../datasets/one-dataset.js";
import { BRANCH_HELP, openTable, parseVersionOrTag, type TableFlags, VERSION_HELP } from "../args/open-table.js";
import { storageOptionFlag } from "../args/storage-options.js";
import { writeNetcdfBeside } from "./export-file.js";
import { sourceGlobals } from "../datasets/row-id.js";
import { exportZarr } from "./export-zarr.js";
import { exportZarrGroups, type ZarrGroupTarget } from "./export-zarr-groups.js";
import { groupTree, readGroupTree } from "./export-groups.js";
import { CliError } from "../errors.js";
import { withCoordinates } from "../datasets/with-coordinates.js";
import { dataset as openDataset } from "lance-nd";
import type { NdTable } from "lance-nd";
import type { ExportSummary, ZarrCompression } from "./export-zarr.js";

interface ExportOptions extends SelectionOptions, TableFlags {
  where?: string;
  project?: string[];
  compression?: WriteCompression | ZarrCompression;
  format: "netcdf" | NetcdfFormat | "zarr";
  zarrVersion: 2 | 3;
  chunks?: Map<string, number>;
  groups?: boolean;
  json?: boolean;
}

export function registerExport(program: Command, io: Io): void {
  selectionOptions(program.command("export"))
    .description(
      "write one dataset (a row, or the chunks of one dataset assembled) to a netCDF-4 file or a Zarr store, as it was imported",
    )
    .argument("<table>", "the table")
    .argument(
      "<out>",
      "the netCDF file (replaced if it exists) or, with --format zarr, the Zarr store (must not exist) to write",
    )
    .addOption(
      new Option(
        "--format <format>",
        "what to write: netcdf (in the source's format: classic, 64bit-offset or netcdf4, as imported; netcdf4 with --compression or --chunks), one of those three, or zarr",
      )
        .choices(["netcdf", "netcdf4", "classic", "64bit-offset", "zarr"])
        .default("netcdf"),
    )
    .addOption(
      new Option(
        "--zarr-version <n>",
        "Zarr format version (--format zarr): 2 (consolidated) for zarr-python 2 and the xarray of Debian and most installs, 3 for zarr-python 3 and zarrita",
      )
        .choices(["2", "3"])
        .default(2)
        .argParser((text) => Number(text) as 2 | 3),
    )
    .option(
      "--where <sql>",
      "Lance SQL filter selecting the rows of one dataset, e.g. \"__global_attrs__.id = 'ocean.nc'\"",
    )
    .option("--project <names>", "only these variables, comma-separated", (text) =>
      text.split(",").map((s) => s.trim()),
    )
    .option("--version <n|tag>", VERSION_HELP, parseVersionOrTag)
    .option(
      "--compression <codec>",
      "compression of every variable: none, deflate or deflate:<level>, zstd or zstd:<level> for netCDF (default: as imported), none, zstd or zstd:<level> for Zarr (default: as the table's encoding)",
      parseExportCompression,
    )
    .option(
      "--chunks <dim=size,...>",
      "HDF5 or Zarr chunk sizes, e.g. time=1,lat=90 (default: as imported; Zarr: one chunk per table row)",
      (text, prev?: Map<string, number>) => parseIntAssignments(text, 1, prev),
    )
    .option(
      "--groups",
      "the selected dataset and the datasets of its groups (ids <id>/<group path>, as import makes of a file's groups) as one tree: a netCDF-4 file with those groups, or a Zarr store with a group each",
    )
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .option("--json", "print the summary as JSON")
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  lance-nd export data/ocean.lance sst.nc --where \"__global_attrs__.id = 'sst-2000.nc'\"  # then: ncdump -h sst.nc",
        "  lance-nd export lance-nd-demo/ocean.lance window.nc --isel time=0:3 --sel lat=-30:30",
        "  lance-nd export lance-nd-demo/ocean.lance ocean.zarr --format zarr --zarr-version 2 --chunks time=4  # then: xarray.open_zarr",
      ].join("\n"),
    )
    .action((table: string, out: string, options: ExportOptions) =>
      failing(`cannot export ${table} to ${out}`, () => exportDataset(io, table, out, options)),
    );
}

/** `none`, `deflate` or `deflate:<level>` (1..9, netCDF only), `zstd` or `zstd:<level>` (1..22). */
function parseExportCompression(text: string): WriteCompression | ZarrCompression {
  const m = /^(none|deflate|zstd)(?::(\d+))?$/.exec(text.trim());
  const level = m?.[2] === undefined ? undefined : Number(m[2]);
  const most = m?.[1] === "zstd" ? 22 : 9;
  if (m === null || (m[1] === "none" && level !== undefined) || (level !== undefined && (level < 1 || level > most))) {
    throw new InvalidArgumentError(
      "expected none, deflate or deflate:<level 1..9> (netCDF only), zstd or zstd:<level 1..22>",
    );
  }
  if (m[1] === "none") return { codec: "none" };
  return { codec: m[1] as "deflate" | "zstd", ...(level === undefined ? {} : { level }) };
}

async function exportDataset(io: Io, uri: string, out: string, options: ExportOptions): Promise<void> {
  const table = await openTable(uri, options, io);
  if (options.groups) {
    checkWholeDatasets(options);
    if (options.format === "zarr") {
      const tree = await groupTree(table, options.where);
      const exportOne = (group: ZarrGroupTarget) =>
        exportZarr(io, table, group.out, { ...options, where: group.where });
      printSummary(io, options, await exportZarrGroups(table, out, tree, options.zarrVersion, exportOne));
      return;
    }
  } else if (options.format === "zarr") {
    printSummary(io, options, await exportZarr(io, table, out, options));
    return;
  }
  const read = options.groups
    ? await readGroupTree(await groupTree(table, options.where), (where) => readStored(table, where, options))
    : await readStored(table, options.where, options).then(({ dataset, rows }) => ({
        groups: new Map([["", dataset]]),
        rows,
      }));
  const dataset = read.groups.get("")!;
  const chunks = options.chunks === undefined ? {} : { chunks: Object.fromEntries(options.chunks) };
  const compression = options.compression;
  const storage = compression !== undefined || options.chunks !== undefined;
  const format =
    options.format === "netcdf" ? (storage || read.groups.size > 1 ? "netcdf4" : undefined) : options.format;
  await writeNetcdfBeside(out, (temporary) =>
    writeNetcdfGroups(temporary, read.groups, {
      mode: "overwrite", // the empty temporary file writeNetcdfBeside claimed
      ...(compression === undefined ? {} : { compression: compression as WriteCompression }),
      ...chunks,
      ...(format === undefined ? {} : { format }),
    }),
  );
  printSummary(io, options, {
    file: out,
    format: options.format,
    rows: read.rows,
    variables: dataset.names(),
    grid: dataset.grid(),
    globalAttrs: [...dataset.globalAttrs.keys()],
    ...(options.groups ? { groups: [...read.groups.keys()].filter((group) => group !== "") } : {}),
  });
}

/** `--groups` writes whole datasets: `InvalidArgument` for `--isel`, `--sel` or `--project` with it. */
function checkWholeDatasets(options: ExportOptions): void {
  const narrowing = [
    ...(options.isel === undefined ? [] : ["--isel"]),
    ...(options.sel === undefined ? [] : ["--sel"]),
    ...(options.project === undefined ? [] : ["--project"]),
  ];
  if (narrowing.length > 0)
    throw new CliError(
      "InvalidArgument",
      `--groups writes whole datasets (each group has its own dims and variables): leave out ${narrowing.join(", ")}`,
    );
}

/** The dataset of the rows `where` selects, narrowed by the options, as the file stored it. */
async function readStored(
  table: NdTable,
  where: string | undefined,
  options: ExportOptions,
): Promise<{ dataset: NdRecordBatch; rows: number }> {
  // Rows that are not one dataset have no variables to look coordinates up in: the read below says why.
  const variables = async () =>
    openDataset(table, where === undefined ? {} : { where }).then(
      (ds) => ds.variables,
      () => [],
    );
  const project = options.project === undefined ? undefined : withCoordinates(options.project, await variables());
  const read = await readDataset(table, where, project, options);
  const selected = project === undefined ? read.dataset : read.dataset.select(project);
  return { dataset: asStored(selected, tableCfEncoding(table)), rows: read.rows };
}

function printSummary(io: Io, options: ExportOptions, summary: ExportSummary): void {
  const { file: out, rows } = summary;
  if (options.json) printJson(io.stdout, summary);
  else {
    println(
      io.stdout,
      `wrote ${out}: ${summary.variables.length} variables on (${gridText(summary.grid)}) from ${rows} row${rows === 1 ? "" : "s"}`,
    );
  }
}

/** Dims a summary line names; a wider grid's others are counted (`--json` lists every one). */
const DIMS_NAMED = 8;

/** `time=3, lat=4, lon=5`; past {@link DIMS_NAMED} dims, the first ones and how many more. */
function gridText(grid: ExportSummary["grid"]): string {
  const named = grid.slice(0, DIMS_NAMED).map((d) => `${d.name}=${d.size}`);
  return grid.length > DIMS_NAMED ? `${named.join(", ")} and ${grid.length - DIMS_NAMED} more dims` : named.join(", ");
}

/** The dataset as the file stored it: the CF decoding of the import undone, its names, global attributes and attribute types as the file had them. */
function asStored(dataset: NdRecordBatch, cf: ReturnType<typeof tableCfEncoding>): NdRecordBatch {
  const arrays = dataset.arrays().map(([name, array]) => {
    const encoded = cfEncode(array, { ...cf, name });
    return [name, encoded.withAttrs(sourceAttrTypes(encoded.attrs, encoded))] as const;
  });
  return withSourceNames(dataset.withArrays(arrays).withGlobalAttrs(sourceGlobals(dataset.globalAttrs)));
}
