/**
 * `lance-nd export --format zarr` (CLI README, "Zarr"): the selected rows
 * streamed into a Zarr store, one row at a time in table order, each row's
 * blocks written as the chunks they cover.
 */
import type { NetcdfFormat } from "@lance-nd/netcdf";
import { CHUNK_OFFSET } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { writeZarr } from "@lance-nd/zarr";
import type { WriteZarrOptions } from "@lance-nd/zarr";
import { columnDefaults, scan } from "lance-nd";
import { sourceRow, tableCfEncoding } from "lance-nd/internal";
import type { Dataset, NdTable } from "lance-nd";
import type { SelectionOptions } from "../args/selection.js";
import { CliError } from "../errors.js";
import { selectedView, viewRows } from "../datasets/read-region.js";
import { valueBytes } from "./import-zarr.js";
import { withCoordinates } from "../datasets/with-coordinates.js";
import { zarrCall } from "./zarr-errors.js";
import type { Io } from "../io.js";
import { progressBar } from "../output/progress.js";

/** The Zarr codecs `--compression` chooses from. */
export type ZarrCompression = NonNullable<WriteZarrOptions["compression"]>;

/** What `export --format zarr` takes from the command line. */
export interface ZarrExportOptions extends SelectionOptions {
  where?: string;
  project?: string[];
  compression?: { codec: string; level?: number };
  zarrVersion: 2 | 3;
  chunks?: ReadonlyMap<string, number>;
}

/** What an export wrote, for the summary. */
export interface ExportSummary {
  file: string;
  format: "netcdf" | NetcdfFormat | "zarr";
  rows: number;
  variables: string[];
  grid: { name: string; size: number }[];
  globalAttrs: string[];
  /** With `--groups`: the groups written below the root, by path. */
  groups?: string[];
}

/**
 * Writes the dataset that `options` select from `table` as a Zarr store at
 * `out`, streaming: one table row (cut to the selection) in memory at a
 * time, values as stored (the table's `--cf` decoding undone), as the
 * source file had them (lance-nd's `sourceRow`: the file's names and `id`,
 * no netCDF storage attributes); a progress bar on a terminal. Chunks:
 * `options.chunks` along the dims it names, else the table's rows (see
 * {@link rowChunks}). A `ZarrError` becomes a
 * `CliError`; a failed write leaves `out` as it was.
 */
export async function exportZarr(
  io: Io,
  table: NdTable,
  out: string,
  options: ZarrExportOptions,
): Promise<ExportSummary> {
  const compression = zarrCompression(options.compression) ?? (await tableZarrCompression(table));
  const starts = await rowStarts(table, options.where);
  const view = await selectedView(table, options.where, options);
  const project = options.project === undefined ? undefined : withCoordinates(options.project, view.variables);
  const exported = view.variables.filter((v) => project?.includes(v.name) ?? true);
  const exportedDims = new Set(exported.flatMap((v) => v.dims));
  // The cells the selection keeps along each dim it keeps (a dim a single value picks is left out).
  const extents = new Map(
    (await view.selectedDims()).filter((d) => exportedDims.has(d.name)).map((d) => [d.name, d.size]),
  );
  const unknown = [...(options.chunks?.keys() ?? [])].filter((dim) => !extents.has(dim));
  if (unknown.length > 0) {
    throw new CliError(
      "InvalidArgument",
      `--chunks names ${unknown.join(", ")}, which the exported dataset does not have (its dims: ${[...extents.keys()].join(", ")})`,
    );
  }
  const chunks = { ...rowChunks(view, starts, extents), ...Object.fromEntries(options.chunks ?? []) };
  const totalBytes = exported.reduce(
    (n, v) => n + v.dims.reduce((cells, d) => cells * (extents.get(d) ?? 1), 1) * valueBytes(v.type),
    0,
  );
  const progress = progressBar(io, "export", totalBytes);
  let globalAttrs: string[] = [];
  async function* rows(): AsyncGenerator<NdRecordBatch> {
    let bytesDone = 0;
    let count = 0;
    for await (const row of viewRows(view, project)) {
      const stored = sourceRow(row);
      if (count === 0) globalAttrs = [...stored.globalAttrs.keys()].filter((key) => key !== CHUNK_OFFSET);
      yield stored;
      bytesDone += row.arrays().reduce((n, [, array]) => n + array.values.length * valueBytes(array.type), 0);
      progress.update(bytesDone, ++count);
    }
  }
  try {
    const written = await zarrCall(() =>
      writeZarr(out, rows(), {
        version: options.zarrVersion,
        chunks,
        compression,
        cf: tableCfEncoding(table),
      }),
    );
    return {
      file: out,
      format: "zarr",
      rows: written.rows,
      variables: [...written.arrays],
      grid: written.dims.map((d) => ({ ...d })),
      globalAttrs,
    };
  } finally {
    progress.stop();
  }
}

/** `--compression` for Zarr: none or zstd (a netCDF codec is `InvalidArgument`). */
function zarrCompression(compression: ZarrExportOptions["compression"]): ZarrCompression | undefined {
  if (compression === undefined || compression.codec === "none" || compression.codec === "zstd")
    return compression as ZarrCompression | undefined;
  throw new CliError(
    "InvalidArgument",
    `--compression ${compression.codec} does not go with --format zarr (netCDF: none, deflate or zstd; Zarr: none or zstd)`,
  );
}

/**
 * The `chunk_offset` of every row `where` selects, read from the global
 * attributes alone. Rows of several datasets (different `id`s) are
 * `InvalidArgument` naming them, with the `--where` that selects one.
 */
async function rowStarts(table: NdTable, where: string | undefined): Promise<number[][]> {
  let rows = scan(table).project([]);
  if (where !== undefined) rows = rows.filter(where);
  const starts: number[][] = [];
  const ids = new Set<string>();
  for await (const row of rows) {
    ids.add(String(row.globalAttr("id") ?? "?"));
    const offset = row.globalAttr(CHUNK_OFFSET);
    if (Array.isArray(offset)) starts.push(offset.map(Number));
  }
  if (ids.size > 1) {
    const shown = [...ids].slice(0, 5);
    throw new CliError(
      "InvalidArgument",
      `the rows ${where === undefined ? "of the table" : `--where ${where} selects`} hold ${ids.size} datasets (ids ${shown.join(", ")}); select one, e.g. --where "__global_attrs__.id = '${shown[0]}'"`,
    );
  }
  return starts;
}

/**
 * The chunk sizes that make one Zarr chunk of each table row: along every
 * dim the selection keeps, the step between the rows' `starts` that occurs
 * most (the whole dim when the rows are not cut along it), at most the
 * selection's extent. Rows of other sizes, and rows a selection cuts, are
 * written into these chunks in pieces.
 */
function rowChunks(
  view: Dataset,
  starts: readonly number[][],
  extents: ReadonlyMap<string, number>,
): Record<string, number> {
  const chunks: Record<string, number> = {};
  for (const [d, { name, size }] of view.dims.entries()) {
    const extent = extents.get(name);
    if (extent === undefined) continue;
    const along = new Set(starts.filter((start) => start.length === view.dims.length).map((start) => start[d]!));
    const step = mostCommonStep([...along].sort((a, b) => a - b)) ?? size;
    chunks[name] = Math.max(1, Math.min(step, extent));
  }
  return chunks;
}

/** The most common gap between sorted distinct starts, `undefined` for fewer than two. */
function mostCommonStep(starts: readonly number[]): number | undefined {
  const counts = new Map<number, number>();
  for (let i = 1; i < starts.length; i++) {
    const gap = starts[i]! - starts[i - 1]!;
    counts.set(gap, (counts.get(gap) ?? 0) + 1);
  }
  let best: number | undefined;
  for (const [gap, count] of counts) if (best === undefined || count > counts.get(best)!) best = gap;
  return best;
}

/**
 * The Zarr codec matching a table's encoding (its column defaults, CLI
 * README "Encoding defaults"): none stays none, zstd keeps its level, and
 * anything else (lz4, Lance's own) is zstd, Zarr's usual codec.
 */
async function tableZarrCompression(table: NdTable): Promise<ZarrCompression> {
  const compression = (await columnDefaults(table)).compression;
  if (compression === "none") return { codec: "none" };
  if (typeof compression === "object" && compression.codec === "zstd" && compression.level !== undefined)
    return { codec: "zstd", level: compression.level };
  return { codec: "zstd" };
}
